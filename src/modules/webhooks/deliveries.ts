import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { DAY_MS } from '../../days.ts';
import { deletePickedInBatches } from '../../db/batched-delete.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { newUuid } from '../../ids.ts';
import { enqueue, unkeyedJobsSql } from '../../jobs/queue.ts';
import { madeOnce } from '../../made-once.ts';
import { type EventStatementPart, eventEnvelopes, type RecordedEvent, recordEvent } from '../events/index.ts';
import type { DeliveryWithAttempts } from './json.ts';
import { getEndpoint } from './service.ts';
import { attemptsInOrder, webhookAttempts, webhookDeliveries, webhookEndpoints } from './tables.ts';

export const HISTORY_DAYS = 30;

/** The most deliveries one job attempts (in parallel). */
const DELIVERIES_PER_JOB = 50;

/**
 * Creates, in the statement that records the events, a delivery of each event it recorded for
 * every active endpoint of its owner that subscribes to its type and is unbound or bound to its
 * profile (`profile.deleted` goes to unbound endpoints only), and jobs that attempt them, up to
 * DELIVERIES_PER_JOB each. Inactive endpoints get nothing, and nothing is stored for them. The
 * webhooks module subscribes it to every event (index.ts).
 */
export function fanOut(list: readonly RecordedEvent[]): EventStatementPart | null {
  if (list.length === 0) return null;
  const statement = fanOutStatement();
  return {
    shape: 'webhook fan-out',
    values: {
      webhook_fan_out_event_ids: list.map((e) => e.id),
      webhook_fan_out_owner_ids: list.map((e) => e.ownerId),
      webhook_fan_out_profile_ids: list.map((e) => e.profileId),
      webhook_fan_out_types: list.map((e) => e.type),
      webhook_fan_out_at: now().toISOString(),
    },
    with: statement.with,
    effects: statement.effects,
  };
}

/** The fan-out's parts, the same for every list of events (each call fills only their placeholders). */
const fanOutStatement = madeOnce((): Pick<EventStatementPart, 'with' | 'effects'> => {
  // A job per few dozen deliveries rather than per delivery: the queue's own work (add, fetch,
  // complete) is then shared by the deliveries, which the job attempts in parallel.
  const p = (name: string) => sql.placeholder(`webhook_fan_out_${name}`);
  const at = sql`${p('at')}::timestamptz`;
  const jobs = unkeyedJobsSql(
    'deliver_webhooks',
    { delivery_ids: sql`ids`, attempts_made: sql`0` },
    'webhook_fan_out_batches',
    'webhook_fan_out_jobs',
  );
  return {
    with: [
      [
        'webhook_fan_out_events',
        sql`select * from unnest(${p('event_ids')}::uuid[], ${p('owner_ids')}::text[],
          ${p('profile_ids')}::text[], ${p('types')}::text[])
          with ordinality as ev(id, owner_id, profile_id, type, n)
          where ev.id in (select id from recorded_events)`,
      ],
      [
        'webhook_fan_out_deliveries',
        sql`insert into ${webhookDeliveries} (id, owner_id, endpoint_id, event_id, event_profile_id, status, attempt_count, next_attempt_at, created_at, updated_at)
          select switchboard_uuid_v7(), e.owner_id, e.id, ev.id, ev.profile_id, 'pending', 0, ${at}, ${at}, ${at}
          from webhook_fan_out_events ev join ${webhookEndpoints} e on e.owner_id = ev.owner_id and e.active and ev.type = any(e.events)
            and (e.profile_id is null or (ev.type <> 'profile.deleted' and e.profile_id = ev.profile_id))
          order by ev.n
          returning id`,
      ],
      [
        'webhook_fan_out_batches',
        sql`select json_agg(id) as ids
          from (select id, (row_number() over () - 1) / ${DELIVERIES_PER_JOB} as chunk from webhook_fan_out_deliveries) c
          group by chunk`,
      ],
      jobs.with,
    ],
    effects: jobs.effects,
  };
});

/** One delivery of a recorded event to one endpoint, attempted at once (resend, test). */
export async function createDelivery(
  tx: Tx,
  input: { ownerId: string; endpointId: string; eventId: string; eventProfileId: string | null },
) {
  const at = now();
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({
      id: newUuid(),
      ownerId: input.ownerId,
      endpointId: input.endpointId,
      eventId: input.eventId,
      eventProfileId: input.eventProfileId,
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
  const since = new Date(now().getTime() - HISTORY_DAYS * DAY_MS);
  const before = page.before;
  const rows = await db
    .select()
    .from(webhookDeliveries)
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
  return await withEventsAndAttempts(db, rows);
}

/** The deliveries as shown: each with its event's type and its attempts, oldest first. */
async function withEventsAndAttempts(
  db: Db,
  rows: (typeof webhookDeliveries.$inferSelect)[],
): Promise<DeliveryWithAttempts[]> {
  const ids = rows.map((r) => r.id);
  const [envelopes, retries] = await Promise.all([
    eventEnvelopes(
      db,
      rows.map((r) => r.eventId),
    ),
    ids.length === 0
      ? []
      : db
          .select()
          .from(webhookAttempts)
          .where(inArray(webhookAttempts.deliveryId, ids))
          .orderBy(webhookAttempts.attemptedAt),
  ]);
  // A delivery's event is deleted only with its profile, after the delivery (src/modules.ts).
  return rows.flatMap((r) => {
    const envelope = envelopes.get(r.eventId);
    if (!envelope) return [];
    const attempts = attemptsInOrder(
      r.attempts,
      retries.filter((a) => a.deliveryId === r.id),
    );
    return [{ ...r, eventType: envelope.type, attempts }];
  });
}

async function deliveryWithAttempts(db: Db, id: string): Promise<DeliveryWithAttempts> {
  const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  const [delivery] = await withEventsAndAttempts(db, rows);
  if (!delivery) throw new Error(`delivery ${id} vanished`);
  return delivery;
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
    createDelivery(tx, {
      ownerId: endpoint.ownerId,
      endpointId: endpoint.id,
      eventId: original.eventId,
      eventProfileId: original.eventProfileId,
    }),
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
    return await createDelivery(tx, {
      ownerId: endpoint.ownerId,
      endpointId: endpoint.id,
      eventId: event.id,
      eventProfileId: event.profileId,
    });
  });
  return await deliveryWithAttempts(db, created.id);
}

/** Rows one statement of the clean-up deletes at most: a short transaction however much is due. */
const RETENTION_BATCH = 5_000;

/**
 * Deletes deliveries (and their attempts) past the 30 days of history (a periodic job), `batch`
 * rows a statement until none is left, so a large backlog never holds one long transaction.
 * The old ones are found endpoint by endpoint through the history's index (endpoint, time):
 * every delivery has an endpoint, and an index on the time alone would cost every delivery one
 * more index entry written for a clean-up that runs once an hour.
 */
export async function deleteOldDeliveries(db: Db, batch = RETENTION_BATCH): Promise<number> {
  const cutoff = new Date(now().getTime() - HISTORY_DAYS * DAY_MS).toISOString();
  return await deletePickedInBatches(
    db,
    webhookDeliveries,
    webhookDeliveries.id,
    (limit) => sql`select due.id from ${webhookEndpoints} e
      cross join lateral (
        select d.id from ${webhookDeliveries} d
        where d.endpoint_id = e.id and d.created_at < ${cutoff}::timestamptz
        limit ${limit}
      ) due
      limit ${limit}`,
    batch,
  );
}
