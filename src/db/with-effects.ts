/**
 * Statements that write rows and act on them (queue a job per row, say) in one round trip.
 *
 * PostgreSQL runs a data-modifying CTE (insert, update, delete) whatever the rest of the
 * statement reads, but a SELECT (in WITH or as a subquery) only where the statement reads it,
 * and of its select list only what is read: an effect written as a SELECT
 * (`select graphile_worker.add_job(...) from ...`) that nothing reads would silently never run.
 * So an effect is always run by reading its count (`effectCount`): every row the effect yields
 * is made, its select list computed, once, however many rows read the count; not at all when
 * nothing reads it (a final select that yields no row), which is why a statement reads the
 * count from what the effect depends on. The count reads rows, not columns: an effect's select
 * list must call a VOLATILE function (add_job is), which PostgreSQL neither leaves out nor moves;
 * a STABLE or IMMUTABLE call that nothing reads would never run.
 */
import { type SQL, sql } from 'drizzle-orm';

/** The count of an effect's rows: reading it (in a select list, or a filter that always holds) is what runs the effect. */
export function effectCount(effect: SQL): SQL<number> {
  return sql<number>`(select count(*) from (${effect}) as effect)::int`;
}

export interface EffectsStatement {
  /** The CTEs, in order: each may read the ones before it. */
  with: readonly (readonly [name: string, query: SQL])[];
  /** SELECTs that act (each may read any CTE); each is run by its count, `<name>_count` in the answer. */
  effects: readonly (readonly [name: string, query: SQL])[];
  /** The final select's columns, beside the effects' counts. */
  select: SQL;
  /** What the final select reads: `batch`, `updated u`. */
  from: SQL;
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/** A CTE's name as SQL, refused unless it is a plain lower-case name (it is written unquoted). */
export function plainName(name: string): SQL {
  if (!NAME.test(name)) throw new Error(`withEffects: ${JSON.stringify(name)} is not a plain name`);
  return sql.raw(name);
}

/** `with` the CTEs, then a final select that runs each effect once (none when it yields no row). */
export function withEffects(statement: EffectsStatement): SQL {
  const ctes = statement.with.map(([name, query]) => sql`${plainName(name)} as (${query})`);
  const counts = statement.effects.map(([name, query]) => sql`${effectCount(query)} as ${plainName(name)}_count`);
  return sql`with ${sql.join(ctes, sql`, `)} select ${sql.join([statement.select, ...counts], sql`, `)} from ${statement.from}`;
}
