/**
 * The plans of the queries a service function runs: a drizzle Db that records every query it
 * runs (and still runs it), then each recorded query under EXPLAIN (ANALYZE, BUFFERS) on the
 * same database, as the benches print them.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from '../src/db/connection.ts';

export interface RecordedQuery {
  sql: string;
  params: unknown[];
}

/**
 * A Db on `pool` whose queries are appended to `queries` as they run: drizzle's through its
 * logger, and those a service sends straight to the pool (`$client`, a named statement).
 */
export function recordingDb(pool: pg.Pool): { db: Db; queries: RecordedQuery[] } {
  const queries: RecordedQuery[] = [];
  const db = drizzle(pool, {
    logger: { logQuery: (sql, params) => queries.push({ sql, params: [...params] }) },
  }) as unknown as Db;
  const client = Object.create(pool) as pg.Pool;
  client.query = ((config: pg.QueryConfig) => {
    queries.push({ sql: config.text, params: [...(config.values ?? [])] });
    return pool.query(config);
  }) as pg.Pool['query'];
  return { db: Object.assign(db, { $client: client }), queries };
}

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode, into: PlanNode[] = []): PlanNode[] {
  into.push(node);
  for (const child of node.Plans ?? []) nodesOf(child, into);
  return into;
}

export interface ExplainedQuery {
  executionMs: number;
  planningMs: number;
  /** Every node of both plans (each plan's top one first). */
  nodes: PlanNode[];
  /** Four lines for a report: for each plan, the time, buffers and node types; the relations read and how. */
  lines: string[];
}

interface Explained {
  Plan: PlanNode;
  'Execution Time': number;
  'Planning Time': number;
}

function planLines(label: string, top: Explained): string[] {
  const nodes = nodesOf(top.Plan);
  const scans = nodes
    .filter((n) => n['Relation Name'] !== undefined)
    .map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name']} (${n['Actual Rows'] ?? 0} rows)`);
  const hit = top.Plan['Shared Hit Blocks'] ?? 0;
  const read = top.Plan['Shared Read Blocks'] ?? 0;
  return [
    `${label}: ${top['Execution Time'].toFixed(2)} ms (planning ${top['Planning Time'].toFixed(2)} ms), buffers hit ${hit} read ${read}; ${[...new Set(nodes.map((n) => n['Node Type']))].join(', ')}`,
    `    ${scans.join('; ')}`,
  ];
}

/**
 * Runs each recorded query again under EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) twice: planned for
 * its values (as an unnamed statement is, and a named one for its first five runs), and as a
 * named statement runs it later, with the generic plan if PostgreSQL keeps to that.
 */
export async function explainQueries(pool: pg.Pool, queries: readonly RecordedQuery[]): Promise<ExplainedQuery[]> {
  const explained: ExplainedQuery[] = [];
  const client = await pool.connect();
  try {
    for (const [i, { sql, params }] of queries.entries()) {
      // The values as the driver sends them (dates as ISO text, as pg does).
      const values = params.map((v) => (v instanceof Date ? v.toISOString() : v));
      const custom = (
        await client.query<{ 'QUERY PLAN': Explained[] }>(`explain (analyze, buffers, format json) ${sql}`, values)
      ).rows[0]?.['QUERY PLAN'][0];
      if (custom === undefined) continue;
      // A named statement is planned for its values five times; from then on PostgreSQL decides
      // each run whether the generic plan will do. EXPLAIN EXECUTE decides as a run does.
      await client.query(`prepare bench_prepared as ${sql}`);
      let prepared: Explained | undefined;
      try {
        // EXECUTE takes its values as literals (a bind parameter of the EXPLAIN would not reach it).
        const literal = (v: unknown): string => {
          if (v === null || v === undefined) return 'null';
          if (Array.isArray(v)) {
            return client.escapeLiteral(`{${v.map((e) => `"${String(e).replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
          }
          return client.escapeLiteral(String(v));
        };
        const execute = `execute bench_prepared${values.length === 0 ? '' : `(${values.map(literal).join(', ')})`}`;
        for (let run = 0; run < 5; run += 1) await client.query(execute);
        prepared = (
          await client.query<{ 'QUERY PLAN': Explained[] }>(`explain (analyze, buffers, format json) ${execute}`)
        ).rows[0]?.['QUERY PLAN'][0];
      } finally {
        await client.query('deallocate bench_prepared');
      }
      const from = /\bfrom "?(\w+)"?/i.exec(sql)?.[1] ?? '?';
      explained.push({
        executionMs: custom['Execution Time'],
        planningMs: custom['Planning Time'],
        nodes: [...nodesOf(custom.Plan), ...(prepared === undefined ? [] : nodesOf(prepared.Plan))],
        lines: [
          ...planLines(`query ${i + 1} (from ${from}), planned for its values`, custom),
          ...(prepared === undefined
            ? []
            : planLines(`query ${i + 1}, its sixth run as a prepared statement`, prepared)),
        ],
      });
    }
  } finally {
    client.release();
  }
  return explained;
}
