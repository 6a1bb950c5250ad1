/**
 * One statement that writes rows and acts on them (queues a job per row, for one): `with` its
 * common table expressions, then a final select. PostgreSQL runs a data-modifying CTE (insert,
 * update, delete) whatever the final select reads, but a SELECT in WITH only where the query
 * references it: an effect written as a SELECT (`select graphile_worker.add_job(...) from ...`)
 * that nothing reads would silently never run. Here each effect is counted in the final select,
 * which is what runs it (once, however many rows the select yields; not at all when the select
 * yields none, which is why the final select reads from a CTE the effects depend on).
 */
import { type SQL, sql } from 'drizzle-orm';

export interface EffectsStatement {
  /** The CTEs, in order: each may read the ones before it. */
  with: readonly (readonly [name: string, query: SQL])[];
  /** SELECTs that act (each may read any CTE); each is run by the count `<name>_count` in the answer. */
  effects: readonly (readonly [name: string, query: SQL])[];
  /** The final select's columns, beside the effects' counts. */
  select: SQL;
  /** What the final select reads: `batch`, `updated u`. */
  from: SQL;
}

const NAME = /^[a-z_][a-z0-9_]*$/;

export function withEffects(statement: EffectsStatement): SQL {
  const ctes = [...statement.with, ...statement.effects].map(([name, query]) => {
    if (!NAME.test(name)) throw new Error(`withEffects: ${JSON.stringify(name)} is not a plain name`);
    return sql`${sql.raw(name)} as (${query})`;
  });
  const counts = statement.effects.map(
    ([name]) => sql`(select count(*) from ${sql.raw(name)})::int as ${sql.raw(`${name}_count`)}`,
  );
  return sql`with ${sql.join(ctes, sql`, `)} select ${sql.join([statement.select, ...counts], sql`, `)} from ${statement.from}`;
}
