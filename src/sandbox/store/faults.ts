/** What the control API makes a platform answer instead: a fault for the next call (or publish), a throttle. */
import { eq, or, sql } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { type SandboxFault, sandboxAccounts, sandboxFaults } from '../schema.ts';

export async function addFault(
  store: Store,
  values: { accountId: string; trigger: 'call' | 'publish'; error: string; status?: number; body?: unknown },
): Promise<SandboxFault> {
  const [row] = await store.db
    .insert(sandboxFaults)
    .values({
      accountId: values.accountId,
      trigger: values.trigger,
      error: values.error,
      status: values.status ?? null,
      body: values.body ?? null,
      createdAt: store.now(),
    })
    .returning();
  return row as SandboxFault;
}

/** Takes the oldest fault waiting for this kind of call (a publish also takes `call` faults). */
export async function takeFault(store: Store, accountIds: string[], publishing: boolean): Promise<SandboxFault | null> {
  const triggers = publishing ? ['call', 'publish'] : ['call'];
  const rows = await store.db.execute<{ id: number }>(sql`
    delete from ${sandboxFaults} where id = (
      select id from ${sandboxFaults}
      where account_id in (${sql.join(
        accountIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and trigger in (${sql.join(
        triggers.map((t) => sql`${t}`),
        sql`, `,
      )})
      order by id limit 1 for update skip locked
    ) returning id, account_id, trigger, error, status, body, created_at`);
  const row = rows.rows[0] as Record<string, unknown> | undefined;
  if (!row) return null;
  return {
    id: Number(row.id),
    accountId: String(row.account_id),
    trigger: String(row.trigger),
    error: String(row.error),
    status: row.status === null ? null : Number(row.status),
    body: row.body,
    createdAt: new Date(String(row.created_at)),
  };
}

/** Throttles the account and, for a Facebook user, the pages it manages. */
export async function setThrottle(store: Store, accountId: string, until: Date | null): Promise<void> {
  await store.db
    .update(sandboxAccounts)
    .set({ throttledUntil: until })
    .where(or(eq(sandboxAccounts.id, accountId), eq(sandboxAccounts.parentId, accountId)));
}
