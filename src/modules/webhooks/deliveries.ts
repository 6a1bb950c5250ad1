import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { withEffects } from '../../db/with-effects.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { enqueue, jobSql } from '../../jobs/queue.ts';
import { type EventType, type RecordedEvent, recordEvent } from '../events/index.ts';
import type { DeliveryWithAttempts } from './json.ts';
import { getEndpoint } from './service.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from './tables.ts';

export const HISTORY_DAYS = 30;

/**
 * Creates, in the event's transaction, a delivery for every active endpoint of the owner
 * that subscribes to the event's type and is unbound or bound to the event's profile
 * (`profile.deleted` goes to unbound endpoints only), the module's copy of the event they
 * send, and one job that attempts them all. Inactive endpoints get nothing, and nothing is
 * stored for them. The webhooks module subscribes it to every event (index.ts).
 */
export async function fanOut(tx: Tx, event: RecordedEvent): Promise<number> {
  const at = now().toISOString();
  const binding =
    event.type === 'profile.deleted' || event.profileId === null
      ? sql`e.profile_id is null`
      : sql`(e.profile_id is null or e.profile_id = ${event.profileId})`;
  // One job per event rather than per delivery: the queue's own work (add, fetch, complete) is
  // then shared by the event's deliveries, which the job attempts in parallel.
  const result = await tx.execute<{ n: number }>(
    withEffects({
      with: [
        [
          'created',
          sql`insert into ${webhookDeliveries} (id, owner_id, endpoint_id, event_id, status, attempt_count, next_attempt_at, created_at, updated_at)
            select gen_random_uuid(), e.owner_id, e.id, ${event.id}::uuid, 'pending', 0, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
            from ${webhookEndpoints} e
            where e.owner_id = ${event.ownerId} and e.active and ${event.type} = any(e.events) and ${binding}
            returning id`,
        ],
        ['batch', sql`select json_agg(id) as ids, count(*)::int as n from created`],
        // A data-modifying statement in WITH runs whether or not anything reads it. The deliveries'
        // reference to it is checked at the end of the statement, when both are written.
        [
          'kept',
          sql`insert into ${webhookEvents} (event_id, owner_id, profile_id, type, body, created_at)
            select ${event.id}::uuid, ${event.ownerId}, ${event.profileId}, ${event.type}, ${event.body}, ${at}::timestamptz
            from batch where n > 0`,
        ],
      ],
      effects: [
        [
          'job',
          sql`select ${jobSql('deliver_webhooks', { delivery_ids: sql`ids`, attempts_made: sql`0` })} from batch where n > 0`,
        ],
      ],
      select: sql`n`,
      from: sql`batch`,
    }),
  );
  return result.rows[0]?.n ?? 0;
}

/** Keeps the module's copy of an event that is delivered without a fan-out (a test event). */
async function keepEvent(tx: Tx, event: RecordedEvent): Promise<void> {
  await tx
    .insert(webhookEvents)
    .values({
      eventId: event.id,
      ownerId: event.ownerId,
      profileId: event.profileId,
      type: event.type,
      body: event.body,
      createdAt: now(),
    })
    .onConflictDoNothing();
}

/** One delivery of an event the module keeps a copy of to one endpoint, attempted at once (resend, test). */
export async function createDelivery(tx: Tx, input: { ownerId: string; endpointId: string; eventId: string }) {
  const at = now();
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({
      id: randomUUID(),
      ownerId: input.ownerId,
      endpointId: input.endpointId,
      eventId: input.eventId,
      status: 'pending',
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  await enqueue(tx, 'deliver_webhooks', { delivery_ids: [row.id], attempts_made: 0 });
  return row;
}

/** A page of an endpoint's deliveries of the last 30 days, newest first, with their attempts. */
export async function listDeliveries(
  db: Db,
  scope: Scope,
  endpointId: string,
  page: { limit: number; before?: { createdAt: Date; id: string } | undefined },
): Promise<DeliveryWithAttempts[]> {
  const endpoint = await getEndpoint(db, scope, endpointId);
  const since = new Date(now().getTime() - HISTORY_DAYS * 24 * 60 * 60 * 1000);
  const before = page.before;
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.eventId, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpoint.id),
        sql`${webhookDeliveries.createdAt} >= ${since.toISOString()}::timestamptz`,
        before === undefined
          ? undefined
          : or(
              lt(webhookDeliveries.createdAt, before.createdAt),
              and(eq(webhookDeliveries.createdAt, before.createdAt), lt(webhookDeliveries.id, before.id)),
            ),
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(page.limit + 1);
  const ids = rows.map((r) => r.delivery.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(inArray(webhookAttempts.deliveryId, ids))
          .orderBy(webhookAttempts.attemptedAt);
  return rows.map((r) => ({
    ...r.delivery,
    eventType: r.eventType as EventType,
    attempts: attempts.filter((a) => a.deliveryId === r.delivery.id),
  }));
}

async function deliveryWithAttempts(db: Db, id: string): Promise<DeliveryWithAttempts> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.eventId, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, id));
  if (!row) throw new Error(`delivery ${id} vanished`);
  const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id));
  return { ...row.delivery, eventType: row.eventType as EventType, attempts };
}

function assertActive(endpoint: { active: boolean; id: string }): void {
  if (!endpoint.active) {
    throw new ApiError(
      409,
      'webhook_inactive',
      `Endpoint ${endpoint.id} is inactive; re-enable it with PATCH {"active": true} first.`,
    );
  }
}

/** Sends the event of one of the endpoint's deliveries again, now, as a new delivery. */
export async function resendDelivery(db: Db, scope: Scope, endpointId: string, deliveryId: string) {
  const endpoint = await getEndpoint(db, scope, endpointId);
  const [original] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)));
  if (!original) {
    throw new ApiError(
      404,
      'delivery_not_found',
      `Endpoint ${endpoint.id} has no delivery ${JSON.stringify(deliveryId)}.`,
    );
  }
  assertActive(endpoint);
  const created = await db.transaction((tx) =>
    createDelivery(tx, { ownerId: endpoint.ownerId, endpointId: endpoint.id, eventId: original.eventId }),
  );
  return await deliveryWithAttempts(db, created.id);
}

/** Sends a `webhook.test` event to this endpoint only, at once. */
export async function sendTestEvent(db: Db, scope: Scope, endpointId: string) {
  const endpoint = await getEndpoint(db, scope, endpointId);
  assertActive(endpoint);
  const created = await db.transaction(async (tx) => {
    const event = await recordEvent(tx, {
      ownerId: endpoint.ownerId,
      profileId: endpoint.profileId,
      type: 'webhook.test',
      data: { endpoint_id: endpoint.id, message: 'A test event sent from the API; it changes nothing.' },
    });
    await keepEvent(tx, event);
    return await createDelivery(tx, { ownerId: endpoint.ownerId, endpointId: endpoint.id, eventId: event.id });
  });
  return await deliveryWithAttempts(db, created.id);
}

/** Rows one statement of the clean-up deletes at most: a short transaction however much is due. */
const RETENTION_BATCH = 5_000;

/**
 * Deletes deliveries (and their attempts) past the 30 days of history, then the copies of
 * events that no delivery sends any more (a periodic job), `batch` rows a statement until none
 * is left, so a large backlog never holds one long transaction.
 */
export async function deleteOldDeliveries(db: Db, batch = RETENTION_BATCH): Promise<number> {
  const cutoff = new Date(now().getTime() - HISTORY_DAYS * 24 * 60 * 60 * 1000);
  let deleted = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from ${webhookDeliveries} where ${webhookDeliveries.id} in (
        select old.id from ${webhookDeliveries} old where old.created_at < ${cutoff} limit ${batch})`);
    const n = result.rowCount ?? 0;
    deleted += n;
    if (n < batch) break;
  }
  // A copy younger than the history may still get its first delivery (a test event's, a resend).
  for (;;) {
    const result = await db.execute(sql`
      delete from ${webhookEvents} where ${webhookEvents.eventId} in (
        select old.event_id from ${webhookEvents} old
        where old.created_at < ${cutoff}
          and not exists (select 1 from ${webhookDeliveries} d where d.event_id = old.event_id)
        limit ${batch})`);
    if ((result.rowCount ?? 0) < batch) break;
  }
  return deleted;
}
