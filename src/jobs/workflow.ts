/**
 * Long-running work (publishing a target, sending a reply, syncing insights, refreshing a
 * token) as a workflow: its states and the transitions allowed between them are data, declared
 * once beside the table that keeps them, and every change of state is one `transition()`: a
 * conditional update from the states the transition allows (or fewer) that says whether it
 * took effect. Two runs of one piece of work therefore never both make the same move, and a
 * move the table does not allow is an error at the call, not a row in a state nobody planned.
 */
import { and, eq, getTableColumns, is, isNull, or, SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { now } from '../clock.ts';
import type { Queryable } from '../db/connection.ts';
import { executeShaped, type StatementPart, valuesOf } from '../db/prepared.ts';
import { effectCount } from '../db/with-effects.ts';

/** A move from any of `from` to `to`; without `to` the state stays (other columns change, on condition of it). */
export interface TransitionRule<S extends string> {
  readonly from: readonly S[];
  readonly to?: S;
}

export interface Workflow<S extends string, T extends string> {
  readonly name: string;
  /** Each state and the column values that mean it (null: the column is null). */
  readonly states: { readonly [K in S]: Readonly<Record<string, string | null>> };
  /** The states work is created in. */
  readonly initial: readonly S[];
  readonly transitions: { readonly [K in T]: TransitionRule<S> };
}

/** A transition the workflow does not allow from the state asked. */
export class IllegalTransitionError extends Error {
  override name = 'IllegalTransitionError';
}

/** A workflow, checked while the process starts: every state a rule names exists, and no two states read alike. */
export function defineWorkflow<const S extends string, const T extends string>(
  workflow: Workflow<S, T>,
): Workflow<S, T> {
  const states = Object.keys(workflow.states);
  const known = (s: string) => states.includes(s);
  const rules = Object.entries<TransitionRule<S>>(workflow.transitions);
  for (const [name, rule] of rules) {
    const unknown = [...rule.from, ...(rule.to === undefined ? [] : [rule.to])].filter((s) => !known(s));
    if (unknown.length > 0 || rule.from.length === 0) {
      throw new Error(
        `workflow ${workflow.name}: transition ${name} names no state or unknown ones (${unknown.join(', ')})`,
      );
    }
  }
  const unknownInitial = workflow.initial.filter((s) => !known(s));
  if (unknownInitial.length > 0)
    throw new Error(`workflow ${workflow.name}: unknown initial ${unknownInitial.join(', ')}`);
  const readings = states.map((s) => JSON.stringify(workflow.states[s as S]));
  if (new Set(readings).size !== readings.length) throw new Error(`workflow ${workflow.name}: two states read alike`);
  return workflow;
}

/** The rule of a transition; `from`, when given, must be among the states it allows. */
export function ruleOf<S extends string, T extends string>(
  workflow: Workflow<S, T>,
  name: T,
  from?: readonly S[],
): { from: readonly S[]; to: S | undefined } {
  const rule: TransitionRule<S> | undefined = workflow.transitions[name];
  if (rule === undefined) throw new IllegalTransitionError(`workflow ${workflow.name} has no transition ${name}`);
  const illegal = (from ?? []).filter((s) => !rule.from.includes(s));
  if (illegal.length > 0) {
    throw new IllegalTransitionError(`workflow ${workflow.name}: ${name} is not allowed from ${illegal.join(', ')}`);
  }
  return { from: from ?? rule.from, to: rule.to };
}

/** Where a workflow's work lives: its table and the column that names one piece of work. */
export interface WorkflowTable<S extends string, T extends string, Table extends PgTable> {
  readonly workflow: Workflow<S, T>;
  readonly table: Table;
  readonly id: PgColumn;
}

/** A workflow bound to the table that keeps its state. */
export function workflowTable<S extends string, T extends string, Table extends PgTable>(
  workflow: Workflow<S, T>,
  table: Table,
  id: PgColumn,
): WorkflowTable<S, T, Table> {
  const columns = getTableColumns(table);
  for (const state of Object.values<Readonly<Record<string, string | null>>>(workflow.states)) {
    for (const key of Object.keys(state)) {
      if (!(key in columns)) throw new Error(`workflow ${workflow.name}: table has no column ${key}`);
    }
  }
  return { workflow, table, id };
}

/** SQL that holds for a row in any of these states: for a statement that picks the work in them. */
export function inState<S extends string, T extends string, Table extends PgTable>(
  machine: WorkflowTable<S, T, Table>,
  states: readonly S[],
): SQL {
  const columns: Record<string, PgColumn> = getTableColumns(machine.table);
  const each = states.map((state) =>
    and(
      ...Object.entries(machine.workflow.states[state]).map(([key, value]) => {
        const column = columns[key] as PgColumn;
        return value === null ? isNull(column) : eq(column, value);
      }),
    ),
  );
  const condition = each.length === 1 ? each[0] : or(...each);
  if (condition === undefined) throw new Error(`workflow ${machine.workflow.name}: no state to match`);
  return condition;
}

/** The column values of a state, to write with a new row in it. */
export function stateValues<S extends string, T extends string, Table extends PgTable>(
  machine: WorkflowTable<S, T, Table>,
  state: S,
): Partial<Table['$inferInsert']> {
  if (!machine.workflow.initial.includes(state)) {
    throw new IllegalTransitionError(`workflow ${machine.workflow.name}: work is not created in ${state}`);
  }
  return { ...machine.workflow.states[state] } as Partial<Table['$inferInsert']>;
}

export interface TransitionOptions<S extends string, Table extends PgTable> {
  /** Only from these of the states the transition allows (an illegal one throws). */
  from?: readonly S[];
  /** Other columns written with the move (`updatedAt` among them when the caller dates the change itself). */
  set?: Partial<Table['$inferInsert']>;
  /**
   * A further condition of the move, on the row (or on CTEs of the statement it is made in):
   * that the row is still as the caller read it where its state alone does not say so.
   */
  when?: StatementPart;
  /**
   * An effect of the move, in the same statement: a SELECT over `moved` (the row as moved,
   * e.g. `select graphile_worker.add_job(...) from moved`), run only when the move takes effect.
   * One statement instead of a transaction of two saves the round trips of BEGIN and COMMIT.
   * It is run by its count (`effectCount`, db/with-effects.ts), so its select list must call a
   * VOLATILE function (add_job is).
   */
  effect?: StatementPart;
}

/**
 * Makes one move: updates the row `id` if it is in a state the transition allows (or in
 * `options.from`), writing the new state's columns, `set` and the time of the change. Answers
 * the row as it now is, or null when the move did not take effect (the row was in another
 * state, or is gone): the caller then leaves the work to whoever moved it.
 */
export async function transition<S extends string, T extends string, Table extends PgTable>(
  db: Queryable,
  machine: WorkflowTable<S, T, Table>,
  id: string,
  name: T,
  options: TransitionOptions<S, Table> = {},
): Promise<Table['$inferSelect'] | null> {
  const move = transitionUpdate(machine, id, name, options);
  const { effect } = options;
  // Built once per shape: a workflow's moves take a few, and building one with Drizzle costs the
  // process more than PostgreSQL takes to make it.
  const rows = await executeShaped(
    db,
    `transition ${move.shape} effect ${effect?.shape ?? 'none'}`,
    (handle) => {
      const moved = handle.$with('moved').as(move.update(handle));
      // The effect's count is read by a filter over `moved` (computed once, shared) that always
      // holds: it acts for each row that moved, none when nothing did, and filters no row out.
      return handle
        .with(moved)
        .select()
        .from(moved)
        .where(effect === undefined ? undefined : sql`${effectCount(effect.sql)} >= 0`);
    },
    valuesOf(move, effect),
  );
  return (rows[0] as Table['$inferSelect'] | undefined) ?? null;
}

/** The update a move makes, as a statement's part: built on demand, with its values as placeholders. */
export interface MoveUpdate {
  /** Names everything the update's text depends on. */
  readonly shape: string;
  /** The placeholders' values: `move_id`, `set_<column>` for each column set, and those of `when`. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The update, returning the row as moved: `moved` in the statement it is made in. */
  update(db: Queryable): ReturnType<typeof updateReturning>;
}

function updateReturning(db: Queryable, table: PgTable, set: Record<string, unknown>, where: SQL | undefined) {
  // The table is generic here; drizzle checks the values against its columns at run time.
  return db
    .update(table)
    .set(set as never)
    .where(where)
    .returning();
}

/**
 * The update `transition` makes, for a statement that makes the move beside other work (as its
 * CTE `moved`; its `when` may read that statement's other CTEs). The state's columns are fixed
 * by the move (in its shape); every other value is a placeholder, given as the driver takes it.
 */
export function transitionUpdate<S extends string, T extends string, Table extends PgTable>(
  machine: WorkflowTable<S, T, Table>,
  id: string,
  name: T,
  options: Omit<TransitionOptions<S, Table>, 'effect'> = {},
): MoveUpdate {
  const rule = ruleOf(machine.workflow, name, options.from);
  const columns: Record<string, PgColumn> = getTableColumns(machine.table);
  const stateColumns = rule.to === undefined ? {} : machine.workflow.states[rule.to];
  const given: Record<string, unknown> = {
    ...('updatedAt' in columns ? { updatedAt: now() } : {}),
    ...options.set,
  };
  const setKeys = Object.keys(given)
    .filter((key) => given[key] !== undefined && !(key in stateColumns))
    .sort();
  const values: Record<string, unknown> = { move_id: id };
  for (const key of setKeys) {
    const column = columns[key];
    const value = given[key];
    if (column === undefined) throw new Error(`workflow ${machine.workflow.name}: table has no column ${key}`);
    if (is(value, SQL)) throw new Error(`workflow ${machine.workflow.name}: ${key} is set to SQL; set values only`);
    values[`set_${key}`] = value === null ? null : column.mapToDriverValue(value);
  }
  const { when } = options;
  return {
    shape: `${machine.workflow.name}: ${name} from ${rule.from.join(',')} set ${setKeys.join(',')} when ${when?.shape ?? 'state'}`,
    values: valuesOf({ values }, when),
    update: (db) =>
      updateReturning(
        db,
        machine.table,
        {
          ...Object.fromEntries(setKeys.map((key) => [key, sql`${sql.placeholder(`set_${key}`)}`])),
          ...stateColumns,
        },
        and(eq(machine.id, sql.placeholder('move_id')), inState(machine, rule.from), when?.sql),
      ),
  };
}

/** The workflow as a Mermaid state diagram: what the docs show, generated from the table. */
export function stateDiagram<S extends string, T extends string>(workflow: Workflow<S, T>): string {
  const lines = ['stateDiagram-v2'];
  for (const state of workflow.initial) lines.push(`    [*] --> ${state}`);
  for (const [name, rule] of Object.entries<TransitionRule<S>>(workflow.transitions)) {
    for (const from of rule.from) lines.push(`    ${from} --> ${rule.to ?? from}: ${name}`);
  }
  return lines.join('\n');
}
