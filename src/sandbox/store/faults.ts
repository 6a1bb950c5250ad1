/**
 * What the control API makes a platform answer instead: a fault for the next call (or publish,
 * or token refresh), or for every such call for a while; a throttle.
 */
import { type AnyColumn, eq, or, type SQL, sql } from 'drizzle-orm';
import { executeSqlPreparedByText, textArray } from '../../db/prepared.ts';
import { type FaultPreset, faultAnswer, type SandboxAnswer } from '../answers.ts';
import type { Store } from '../platform.ts';
import { type SandboxFault, sandboxAccounts, sandboxFaults } from '../schema.ts';

export async function addFault(
  store: Store,
  values: {
    accountId: string;
    trigger: FaultTrigger;
    error: string;
    status?: number;
    body?: unknown;
    /** Every such call answers the fault until then; without it, the next one only. */
    until?: Date;
  },
): Promise<SandboxFault> {
  const [row] = await store.db
    .insert(sandboxFaults)
    .values({
      accountId: values.accountId,
      trigger: values.trigger,
      error: values.error,
      status: values.status ?? null,
      body: values.body ?? null,
      until: values.until ?? null,
      createdAt: store.now(),
    })
    .returning();
  return row as SandboxFault;
}

/** The calls a fault waits for: any call with the user's tokens, a publish, a refresh of its tokens. */
export type FaultTrigger = 'call' | 'publish' | 'refresh';

/**
 * The oldest fault waiting for one of these triggers: one for the next call is taken (deleted),
 * one that lasts a while stays until its end, and one past its end answers nothing.
 */
async function takeFault(
  store: Store,
  accountIds: string[],
  triggers: readonly FaultTrigger[],
): Promise<SandboxFault | null> {
  // Prepared by its text, which is the same for any accounts and triggers: every call a sandbox
  // platform answers looks for a fault first.
  const rows = await executeSqlPreparedByText(
    store.db,
    sql`
    with picked as (
      select id from ${sandboxFaults}
      where account_id = any(${textArray(accountIds)}) and trigger = any(${textArray(triggers)})
        and (until is null or until > ${store.now().toISOString()}::timestamptz)
      order by id limit 1 for update skip locked
    ), taken as (
      delete from ${sandboxFaults} where id in (select id from picked) and until is null returning id
    )
    select id, account_id, trigger, error, status, body, until, created_at
    from ${sandboxFaults} where id in (select id from picked)`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    accountId: String(row.account_id),
    trigger: String(row.trigger),
    error: String(row.error),
    status: row.status === null ? null : Number(row.status),
    body: row.body,
    until: row.until === null ? null : new Date(String(row.until)),
    createdAt: new Date(String(row.created_at)),
  };
}

/**
 * Whether any fault is set for these accounts, whatever it waits for: a column of the read that
 * starts a call (`findCaller`), so a call with none, as nearly every one is, takes no statement
 * of its own to find that out; one with some takes its fault as `answerWaitingFault` does.
 */
export function faultSetFor(accountId: AnyColumn, parentId: AnyColumn): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${sandboxFaults} where ${sandboxFaults.accountId} in (${accountId}, ${parentId}))`;
}

/** Throttles the account and, for a Facebook user, the pages it manages. */
export async function setThrottle(store: Store, accountId: string, until: Date | null): Promise<void> {
  await store.db
    .update(sandboxAccounts)
    .set({ throttledUntil: until })
    .where(or(eq(sandboxAccounts.id, accountId), eq(sandboxAccounts.parentId, accountId)));
}

/**
 * Refuses the call as the oldest fault waiting for one of `triggers` on these accounts says
 * (taken as takeFault takes it), in the words `preset` gives a preset; returns when none waits.
 */
export async function answerWaitingFault(
  store: Store,
  accountIds: string[],
  triggers: readonly FaultTrigger[],
  preset: (preset: FaultPreset) => SandboxAnswer,
): Promise<void> {
  const fault = await takeFault(store, accountIds, triggers);
  const answer = fault && faultAnswer(fault, preset);
  if (answer) throw answer;
}
