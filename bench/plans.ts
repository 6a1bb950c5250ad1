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
  /** Every node of the plan, the top one first. */
  nodes: PlanNode[];
  /** Two lines for a report: the time, buffers and node types; the relations read and how. */
  lines: string[];
}

/** Runs each recorded query again under EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON). */
export async function explainQueries(pool: pg.Pool, queries: readonly RecordedQuery[]): Promise<ExplainedQuery[]> {
  const explained: ExplainedQuery[] = [];
  for (const [i, { sql, params }] of queries.entries()) {
    // The values as the driver sends them (dates as ISO text, as pg does).
    const values = params.map((v) => (v instanceof Date ? v.toISOString() : v));
    const { rows: out } = await pool.query<{
      'QUERY PLAN': { Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }[];
    }>(`explain (analyze, buffers, format json) ${sql}`, values);
    const top = out[0]?.['QUERY PLAN'][0];
    if (top === undefined) continue;
    const nodes = nodesOf(top.Plan);
    const scans = nodes
      .filter((n) => n['Relation Name'] !== undefined)
      .map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name']} (${n['Actual Rows'] ?? 0} rows)`);
    const hit = top.Plan['Shared Hit Blocks'] ?? 0;
    const read = top.Plan['Shared Read Blocks'] ?? 0;
    const from = /\bfrom "?(\w+)"?/i.exec(sql)?.[1] ?? '?';
    explained.push({
      executionMs: top['Execution Time'],
      planningMs: top['Planning Time'],
      nodes,
      lines: [
        `query ${i + 1} (from ${from}): ${top['Execution Time'].toFixed(2)} ms (planning ${top['Planning Time'].toFixed(2)} ms), buffers hit ${hit} read ${read}; ${[...new Set(nodes.map((n) => n['Node Type']))].join(', ')}`,
        `    ${scans.join('; ')}`,
      ],
    });
  }
  return explained;
}
