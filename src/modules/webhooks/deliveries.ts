import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, lt, ne, or, sql } from 'drizzle-orm';
import type { Agent } from 'undici';
import { now } from '../../clock.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { enqueue } from '../../jobs/queue.ts';
import { isSuccess, postBytes } from '../../outbound/http-client.ts';
// events/service.ts imports this module too (fan-out); both only call each other at run time.
import { type EventType, recordEvent } from '../events/service.ts';
import { getEndpoint, signingSecrets } from './service.ts';
import { signatureHeader } from './signature.ts';

/** Waits before attempts 2 to 8: 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h (about 24 h in all). */
export const RETRY_DELAYS_MS = [1, 5, 30, 120, 300, 480, 480].map((minutes) => minutes * 60_000);
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Failed attempts in a row (across deliveries) that make an endpoint inactive. */
export const FAILURES_BEFORE_DEACTIVATION = 50;
export const HISTORY_DAYS = 30;
export const RESPONSE_TIMEOUT_MS = 5_000;
export const MAX_RESPONSE_BYTES = 20 * 1024;
export const USER_AGENT = 'Switchboard-Webhooks/0.1';

export type Delivery = typeof webhookDeliveries.$inferSelect;
export type Attempt = typeof webhookAttempts.$inferSelect;

/** What a worker needs to attempt deliveries. */
export interface DeliveryDeps {
  db: Db;
  secretKey: Buffer;
  /** An outbound agent that refuses non-public addresses (src/outbound/http-client.ts). */
  agent: Agent;
}

interface EventRef {
  id: string;
  ownerId: string;
  profileId: string | null;
  type: EventType;
}

/**
 * Creates, in the event's transaction, a delivery for every active endpoint of the owner
 * that subscribes to the event's type and is unbound or bound to the event's profile
 * (`profile.deleted` goes to unbound endpoints only), and a job for each. Inactive
 * endpoints get nothing, and nothing is stored for them.
 */
export async function fanOut(tx: Tx, event: EventRef): Promise<number> {
  const at = now().toISOString();
  const binding =
    event.type === 'profile.deleted' || event.profileId === null
      ? sql`e.profile_id is null`
      : sql`(e.profile_id is null or e.profile_id = ${event.profileId})`;
  const result = await tx.execute(sql`
    with created as (
      insert into webhook_deliveries (id, owner_id, endpoint_id, event_id, status, attempt_count, next_attempt_at, created_at, updated_at)
      select gen_random_uuid(), e.owner_id, e.id, ${event.id}::uuid, 'pending', 0, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
      from webhook_endpoints e
      where e.owner_id = ${event.ownerId} and e.active and ${event.type} = any(e.events) and ${binding}
      returning id
    )
    select graphile_worker.add_job('deliver_webhook', json_build_object('delivery_id', id), job_key => 'deliver_webhook:' || id)
    from created`);
  return result.rowCount ?? 0;
}

/** One delivery of an event to one endpoint, attempted at once (resend, test). */
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
  await enqueue(tx, 'deliver_webhook', { delivery_id: row.id }, { jobKey: `deliver_webhook:${row.id}` });
  return row;
}

/**
 * Makes one attempt of a pending delivery and records it: success ends it; a failure
 * schedules the next attempt (or ends it as failed after the 8th) and counts against the
 * endpoint, which becomes inactive after 50 failures in a row. Safe to run twice (a job
 * retried after a crash): a delivery that is no longer pending is left alone.
 */
export async function attemptDelivery(deps: DeliveryDeps, deliveryId: string): Promise<'sent' | 'failed' | 'skipped'> {
  const [row] = await deps.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (row?.delivery.status !== 'pending') return 'skipped';
  const { delivery, endpoint, event } = row;
  if (!endpoint.active) {
    await deps.db
      .update(webhookDeliveries)
      .set({ status: 'cancelled', nextAttemptAt: null, updatedAt: now() })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')));
    return 'skipped';
  }

  const attemptedAt = now();
  const signature = signatureHeader(
    event.body,
    signingSecrets(deps.secretKey, endpoint),
    Math.floor(attemptedAt.getTime() / 1000),
  );
  const result = await postBytes(
    deps.agent,
    endpoint.url,
    event.body,
    {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'service-signature': signature,
      'service-event': event.type,
      'service-delivery': delivery.id,
    },
    { timeoutMs: RESPONSE_TIMEOUT_MS, maxBodyBytes: MAX_RESPONSE_BYTES },
  );
  // Not merely a 2xx status: an answer cut off by the time limit has a status and an error.
  const succeeded = isSuccess(result);
  const attemptCount = delivery.attemptCount + 1;

  await deps.db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      id: randomUUID(),
      deliveryId: delivery.id,
      attemptedAt,
      durationMs: Math.round(result.durationMs),
      statusCode: result.status ?? null,
      error: result.error ?? (succeeded ? null : `answered ${result.status}`),
      responseBody: result.body ?? null,
      succeeded,
    });
    if (succeeded) {
      await tx
        .update(webhookDeliveries)
        .set({ status: 'succeeded', attemptCount, nextAttemptAt: null, updatedAt: now() })
        .where(eq(webhookDeliveries.id, delivery.id));
      // Only when there is a count to reset: every success rewriting the endpoint's row would
      // make it a point of contention for parallel deliveries.
      await tx
        .update(webhookEndpoints)
        .set({ consecutiveFailures: 0 })
        .where(and(eq(webhookEndpoints.id, endpoint.id), ne(webhookEndpoints.consecutiveFailures, 0)));
      return;
    }
    const delay = RETRY_DELAYS_MS[attemptCount - 1];
    const nextAttemptAt = delay === undefined ? null : new Date(attemptedAt.getTime() + delay);
    await tx
      .update(webhookDeliveries)
      .set({ status: nextAttemptAt ? 'pending' : 'failed', attemptCount, nextAttemptAt, updatedAt: now() })
      .where(eq(webhookDeliveries.id, delivery.id));
    if (nextAttemptAt) {
      await enqueue(
        tx,
        'deliver_webhook',
        { delivery_id: delivery.id },
        { jobKey: `deliver_webhook:${delivery.id}`, runAt: nextAttemptAt },
      );
    }
    const [counted] = await tx
      .update(webhookEndpoints)
      .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1` })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning({ failures: webhookEndpoints.consecutiveFailures, active: webhookEndpoints.active });
    if (counted?.active && counted.failures >= FAILURES_BEFORE_DEACTIVATION) {
      await deactivate(tx, endpoint.id, describeFailure(result));
    }
  });
  return succeeded ? 'sent' : 'failed';
}

function describeFailure(result: { status?: number | undefined; error?: string | undefined }): string {
  return result.error ?? `answered HTTP ${result.status}`;
}

/**
 * Makes an endpoint inactive after too many failures: its pending retries are cancelled
 * and the owner is told by e-mail (a job, so the mail goes out after this commits).
 */
async function deactivate(tx: Tx, endpointId: string, lastError: string): Promise<void> {
  await tx
    .update(webhookEndpoints)
    .set({
      active: false,
      disabledReason: `${FAILURES_BEFORE_DEACTIVATION} failed attempts in a row; last: ${lastError}`,
      updatedAt: now(),
    })
    .where(eq(webhookEndpoints.id, endpointId));
  await tx
    .update(webhookDeliveries)
    .set({ status: 'cancelled', nextAttemptAt: null, updatedAt: now() })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
  await enqueue(tx, 'notify_webhook_disabled', { endpoint_id: endpointId, last_error: lastError });
}

/** A page of an endpoint's deliveries of the last 30 days, newest first, with their attempts. */
export async function listDeliveries(
  db: Db,
  scope: Scope,
  endpointId: string,
  page: { limit: number; before?: { createdAt: Date; id: string } | undefined },
) {
  const endpoint = await getEndpoint(db, scope, endpointId);
  const since = new Date(now().getTime() - HISTORY_DAYS * 24 * 60 * 60 * 1000);
  const before = page.before;
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
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

export type DeliveryWithAttempts = Awaited<ReturnType<typeof listDeliveries>>[number];

async function deliveryWithAttempts(db: Db, id: string): Promise<DeliveryWithAttempts> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
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
    return await createDelivery(tx, { ownerId: endpoint.ownerId, endpointId: endpoint.id, eventId: event.id });
  });
  return await deliveryWithAttempts(db, created.id);
}

/** Deletes deliveries (and their attempts) past the 30 days of history (a periodic job). */
export async function deleteOldDeliveries(db: Db): Promise<number> {
  const cutoff = new Date(now().getTime() - HISTORY_DAYS * 24 * 60 * 60 * 1000);
  const deleted = await db
    .delete(webhookDeliveries)
    .where(lt(webhookDeliveries.createdAt, cutoff))
    .returning({ id: webhookDeliveries.id });
  return deleted.length;
}

export function renderDelivery(d: DeliveryWithAttempts) {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status as 'pending' | 'succeeded' | 'failed' | 'cancelled',
    attempt_count: d.attemptCount,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
    attempts: d.attempts.map((a) => ({
      attempted_at: a.attemptedAt.toISOString(),
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      error: a.error,
      response_body: a.responseBody,
      succeeded: a.succeeded,
    })),
  };
}
