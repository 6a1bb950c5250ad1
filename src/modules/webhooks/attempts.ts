import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Agent } from 'undici';
import { now } from '../../clock.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { GroupCommit } from '../../db/group-commit.ts';
import { executeSqlShaped, preparedPerDb } from '../../db/prepared.ts';
import { withEffects } from '../../db/with-effects.ts';
import { type OwnJobEnd, ownJobEnd } from '../../jobs/job-run.ts';
import { enqueue, jobSql } from '../../jobs/queue.ts';
import { sharedCounter, sharedHistogram } from '../../metrics/shared.ts';
import { isSuccess, type PostResult, postBytes } from '../../outbound/http-client.ts';
import { signatureHeader, standardSignatureHeader } from '../../webhook-signature.ts';
import { eventEnvelopes } from '../events/index.ts';
import { signingSecrets } from './service.ts';
import { type StoredAttempt, webhookAttempts, webhookDeliveries, webhookEndpoints } from './tables.ts';

/** Waits before attempts 2 to 8: 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h (about 24 h in all). */
export const RETRY_DELAYS_MS = [1, 5, 30, 120, 300, 480, 480].map((minutes) => minutes * 60_000);
/** Failed attempts in a row (across deliveries) that make an endpoint inactive. */
export const FAILURES_BEFORE_DEACTIVATION = 50;
export const RESPONSE_TIMEOUT_MS = 5_000;
export const MAX_RESPONSE_BYTES = 20 * 1024;
export const USER_AGENT = 'Switchboard-Webhooks/0.1';

const attemptsMetric = sharedCounter({
  name: 'switchboard_webhook_attempts_total',
  help: 'Webhook delivery attempts made, by outcome: succeeded (a 2xx answer in time) or failed.',
  labelNames: ['outcome'],
});
const deliveriesMetric = sharedCounter({
  name: 'switchboard_webhook_deliveries_total',
  help: 'Webhook deliveries ended, by outcome: succeeded, failed (the 8th attempt failed) or cancelled (the endpoint is inactive, or the event is gone).',
  labelNames: ['outcome'],
});
const lagMetric = sharedHistogram({
  name: 'switchboard_webhook_delivery_lag_seconds',
  help: "From when a delivery attempt was due (the event's commit for the first, the retry's time for the others) to when it was made.",
  labelNames: [],
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
});

/** What a worker needs to attempt deliveries. */
export interface DeliveryDeps {
  db: Db;
  secretKey: Buffer;
  /** An outbound agent that refuses non-public addresses (src/outbound/http-client.ts). */
  agent: Agent;
}

export type AttemptOutcome = 'sent' | 'failed' | 'skipped';

/** One attempt, as it is written: the attempt, and what it makes of its delivery. */
interface AttemptRecord {
  delivery_id: string;
  endpoint_id: string;
  attempt: StoredAttempt;
  /** The delivery's attempts, this one included. */
  attempt_count: number;
  /** When the next attempt is due; null after a success or the last attempt. */
  next_attempt_at: string | null;
}

/** The end of a job whose attempts are all written: the job, and the deliveries it was given. */
interface JobEndRecord {
  end: OwnJobEnd;
  deliveryIds: readonly string[];
  attemptsMade: number;
}

/** What the attempts' group commit writes: an attempt, or a job's end. */
type Recorded = AttemptRecord | JobEndRecord;

/**
 * Attempts the given deliveries, each once, in parallel, and records each attempt: success ends
 * a delivery; a failure schedules its next attempt as a job due then (or ends it as failed after
 * the 8th) and counts against its endpoint, which becomes inactive after 50 failures in a row.
 *
 * Only deliveries still pending with exactly `attemptsMade` attempts behind them are attempted
 * (0: a first attempt): a job run again after a crash, or a stale copy of a retry, leaves alone
 * what was already attempted and recorded. Resolves once every attempt is committed, so a job
 * that completes has nothing left to lose. Run as a job, it then ends its job in the attempts'
 * next group commit, beside other jobs' attempts, instead of graphile-worker's completion, a
 * round trip and a commit of its own.
 */
export async function attemptDeliveries(
  deps: DeliveryDeps,
  deliveryIds: readonly string[],
  attemptsMade: number,
): Promise<AttemptOutcome[]> {
  const rows = await sendableDeliveries(deps.db).execute({ ids: [...deliveryIds], attemptsMade });
  const envelopes = await eventEnvelopes(
    deps.db,
    rows.filter((r) => r.endpoint.active).map((r) => r.delivery.eventId),
  );
  const sendable = rows.flatMap(({ delivery, endpoint }) => {
    const event = envelopes.get(delivery.eventId);
    return endpoint.active && event ? [{ delivery, endpoint, event }] : [];
  });
  // An inactive endpoint's deliveries end here; so would one whose event is gone, which only a
  // profile's deletion does, after deleting the profile's deliveries (src/modules.ts).
  const sent = new Set(sendable.map((s) => s.delivery.id));
  const cancelled = rows.filter((r) => !sent.has(r.delivery.id)).map((r) => r.delivery.id);
  if (cancelled.length > 0) {
    const ended = await deps.db
      .update(webhookDeliveries)
      .set({ status: 'cancelled', nextAttemptAt: null, updatedAt: now() })
      .where(and(inArray(webhookDeliveries.id, cancelled), eq(webhookDeliveries.status, 'pending')))
      .returning({ id: webhookDeliveries.id });
    deliveriesMetric.inc({ outcome: 'cancelled' }, ended.length);
  }
  const recorder = recorderFor(deps.db);
  const outcomes = new Map<string, AttemptOutcome>();
  await Promise.all(
    sendable.map(async ({ delivery, endpoint, event }) => {
      const attemptedAt = now();
      // Each attempt is signed when it is made, in both schemes at the same second with the same
      // secrets. webhook-id is the event's id, not the delivery's: Standard Webhooks receivers
      // deduplicate by it, and a retry or a resend is the same event again.
      const signedAt = Math.floor(attemptedAt.getTime() / 1000);
      const secrets = signingSecrets(deps.secretKey, endpoint);
      const result = await postBytes(
        deps.agent,
        endpoint.url,
        event.body,
        {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'service-signature': signatureHeader(event.body, secrets, signedAt),
          'service-event': event.type,
          'service-delivery': delivery.id,
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(signedAt),
          'webhook-signature': standardSignatureHeader(delivery.eventId, event.body, secrets, signedAt),
        },
        { timeoutMs: RESPONSE_TIMEOUT_MS, maxBodyBytes: MAX_RESPONSE_BYTES },
      );
      // Not merely a 2xx status: an answer cut off by the time limit has a status and an error.
      const succeeded = isSuccess(result);
      const attemptCount = delivery.attemptCount + 1;
      const delay = succeeded ? undefined : RETRY_DELAYS_MS[attemptCount - 1];
      const written = await recorder.submit({
        delivery_id: delivery.id,
        endpoint_id: endpoint.id,
        attempt: {
          attempted_at: attemptedAt.toISOString(),
          duration_ms: Math.round(result.durationMs),
          status_code: result.status ?? null,
          error: succeeded ? null : describeFailure(result),
          // PostgreSQL keeps no NUL in text: one in an answer would refuse the attempt's record every time.
          response_body: result.body === undefined ? null : result.body.replaceAll('\u0000', ''),
          succeeded,
        },
        attempt_count: attemptCount,
        next_attempt_at: delay === undefined ? null : new Date(attemptedAt.getTime() + delay).toISOString(),
      });
      if (written) {
        const outcome = succeeded ? 'succeeded' : 'failed';
        attemptsMetric.inc({ outcome });
        if (succeeded || delay === undefined) deliveriesMetric.inc({ outcome });
        const due = delivery.nextAttemptAt ?? delivery.createdAt;
        lagMetric.observe({}, Math.max(0, attemptedAt.getTime() - due.getTime()) / 1000);
      }
      outcomes.set(delivery.id, succeeded ? 'sent' : 'failed');
    }),
  );
  // Submitted only now: with two writes in flight, an end sent with the last attempt could commit
  // before another attempt's write, and a crash between them would lose that attempt's retry. An
  // end not made fails the run, and the job runs again (recordAll says when and why).
  const end = ownJobEnd();
  if (end !== undefined) {
    if (!(await recorder.submit({ end, deliveryIds, attemptsMade }))) {
      throw new Error(
        `webhook job ${end.jobId}: an attempt it recorded is not in the database (lost with a crash); the job runs again`,
      );
    }
    end.made();
  }
  return deliveryIds.map((id) => outcomes.get(id) ?? 'skipped');
}

/**
 * The given deliveries still pending with `attemptsMade` attempts behind them, with what an
 * attempt uses of their endpoints: the endpoint's other fields would be parsed for every delivery
 * and never read. Prepared, as every webhook job runs it. The attempts are always given: with an
 * optional condition (`$attemptsMade is null or ...`), PostgreSQL planned it again at nearly every
 * call, as the plan for the value given, with the condition folded away, always looked cheaper
 * than the generic plan that kept it.
 */
const sendableDeliveries = preparedPerDb((db) =>
  db
    .select({
      delivery: {
        id: webhookDeliveries.id,
        attemptCount: webhookDeliveries.attemptCount,
        eventId: webhookDeliveries.eventId,
        createdAt: webhookDeliveries.createdAt,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
      },
      endpoint: {
        id: webhookEndpoints.id,
        url: webhookEndpoints.url,
        active: webhookEndpoints.active,
        secretSealed: webhookEndpoints.secretSealed,
        previousSecretSealed: webhookEndpoints.previousSecretSealed,
        previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
      },
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        sql`${webhookDeliveries.id} = any(${sql.placeholder('ids')}::uuid[])`,
        eq(webhookDeliveries.status, 'pending'),
        sql`${webhookDeliveries.attemptCount} = ${sql.placeholder('attemptsMade')}::int`,
      ),
    )
    .prepare('sendable_deliveries'),
);

function describeFailure(result: PostResult): string {
  return result.error ?? `answered HTTP ${result.status}`;
}

/** One group commit of attempt records per database (so per worker process). */
const recorders = new WeakMap<Db, GroupCommit<Recorded, boolean>>();

function recorderFor(db: Db): GroupCommit<Recorded, boolean> {
  let recorder = recorders.get(db);
  if (!recorder) {
    recorder = new GroupCommit((items) => db.transaction((tx) => recordAll(tx, items)));
    recorders.set(db, recorder);
  }
  return recorder;
}

/**
 * Writes the attempts and the jobs' ends of one group commit; answers, for an end, whether it was
 * made. A job's attempts may have been committed without waiting for the WAL flush, and a
 * database that crashed since has lost them, though they were answered committed. So a job is
 * ended only while none of its deliveries is still pending with the attempts it found: one is
 * only where its attempt's record was lost, and the job, failed rather than ended, runs again
 * and attempts it. The end is committed waiting for the flush, which makes
 * every attempt before it durable: an end said made stays made. An end whose write fails (the
 * database away) fails its run too, and the job runs again, attempting only what is unrecorded.
 */
async function recordAll(tx: Tx, items: Recorded[]): Promise<boolean[]> {
  const attempts = items.filter((item): item is AttemptRecord => !('end' in item));
  const ends = items.filter((item): item is JobEndRecord => 'end' in item);
  // Attempts alone commit without waiting for the WAL flush. Safe for at-least-once: the job that
  // made them is ended only in a transaction that waits for it, and only while none of them is
  // missing; a crash that loses this commit fails the job, which then runs again.
  const durable = ends.length > 0 ? 'on' : 'off';
  await executeSqlShaped(
    tx,
    `synchronous_commit ${durable}`,
    () => sql.raw(`set local synchronous_commit = ${durable}`),
    {},
    {
      planEachCall: true,
    },
  );
  const written = attempts.length === 0 ? [] : await recordAttempts(tx, attempts);
  let ended = new Set<string>();
  if (ends.length > 0) {
    const jobs = ends.map((e) => ({
      id: e.end.jobId,
      locked_by: e.end.lockedBy,
      delivery_ids: e.deliveryIds,
      attempts_made: e.attemptsMade,
    }));
    // The ends' pending deliveries are read first, by their keys: joined to the jobs directly,
    // PostgreSQL planned a scan of every delivery. A job is deleted while this process still
    // locks it (src/db/migrations/0045_end_job.sql); ended again after a lost answer, it is gone.
    const made = await executeSqlShaped<{ id: string }>(
      tx,
      'webhook jobs ended',
      () => sql`with pending as materialized (
          select d.id, d.attempt_count from ${webhookDeliveries} d
          where d.id = any(${sql.placeholder('delivery_ids')}::uuid[]) and d.status = 'pending'
        )
        select j.id::text as id, switchboard_end_job(j.id, array[j.locked_by])
        from json_to_recordset(${sql.placeholder('jobs')}::json) as j(id bigint, locked_by text, delivery_ids uuid[], attempts_made int)
        where not exists (select 1 from pending p where p.id = any(j.delivery_ids) and p.attempt_count = j.attempts_made)`,
      { delivery_ids: ends.flatMap((e) => e.deliveryIds), jobs: JSON.stringify(jobs) },
      { planEachCall: true },
    );
    ended = new Set(made.map((row) => row.id));
  }
  let next = 0;
  return items.map((item) => ('end' in item ? ended.has(item.end.jobId) : (written[next++] as boolean)));
}

/**
 * Writes attempts made by any number of jobs, in one transaction: each delivery's new state with
 * its first attempt in its row (a later one in a row of its own), the retries as jobs due then,
 * and the endpoints' failure counts. Answers, per record, whether it was written: an attempt
 * whose delivery has moved on (a duplicate attempt after a crash) or is gone (its endpoint was
 * deleted) is not.
 */
async function recordAttempts(tx: Tx, records: AttemptRecord[]): Promise<boolean[]> {
  // Built once but planned at each call, not prepared: PostgreSQL's generic plan of it ran two to
  // three times longer than planning and running it for the attempts given (bench/README.md).
  const written = await executeSqlShaped<{ id: string }>(
    tx,
    'webhook attempts recorded',
    () =>
      withEffects({
        with: [
          [
            'v',
            sql`select * from json_to_recordset(${sql.placeholder('records')}::json) as v(
            delivery_id uuid, attempt jsonb, attempt_count int, next_attempt_at timestamptz)`,
          ],
          [
            'updated',
            // A delivery cancelled while its attempt was in flight keeps the attempt, and stays cancelled.
            sql`update ${webhookDeliveries} d set
            attempt_count = v.attempt_count,
            attempts = case when v.attempt_count = 1 then d.attempts || jsonb_build_array(v.attempt) else d.attempts end,
            status = case
              when d.status <> 'pending' then d.status
              when (v.attempt->>'succeeded')::boolean then 'succeeded'
              when v.next_attempt_at is null then 'failed'
              else 'pending' end,
            next_attempt_at = case when d.status = 'pending' then v.next_attempt_at end,
            updated_at = ${sql.placeholder('at')}::timestamptz
          from v
          where d.id = v.delivery_id and d.attempt_count = v.attempt_count - 1
          returning d.id, d.status, d.attempt_count, d.next_attempt_at, v.attempt`,
          ],
          [
            'retried',
            sql`insert into ${webhookAttempts} (id, delivery_id, attempted_at, duration_ms, status_code, error, response_body, succeeded)
            select switchboard_uuid_v7(), u.id, (a.attempted_at)::timestamptz, a.duration_ms, a.status_code, a.error, a.response_body, a.succeeded
            from updated u
              cross join jsonb_to_record(u.attempt) as a(attempted_at text, duration_ms int, status_code int, error text, response_body text, succeeded boolean)
            where u.attempt_count > 1`,
          ],
        ],
        effects: [
          [
            'retries',
            sql`select ${jobSql(
              'deliver_webhooks',
              { delivery_ids: sql`json_build_array(u.id)`, attempts_made: sql`u.attempt_count` },
              { runAt: sql`u.next_attempt_at`, jobKey: sql`'deliver_webhook:' || u.id` },
            )}
          from updated u
          where u.status = 'pending' and u.next_attempt_at is not null`,
          ],
        ],
        select: sql`u.id::text as id`,
        from: sql`updated u`,
      }),
    { records: JSON.stringify(records), at: now().toISOString() },
    { planEachCall: true },
  );
  const writtenIds = new Set(written.map((r) => r.id));
  const recorded = records.map((r) => writtenIds.has(r.delivery_id));
  await countFailures(
    tx,
    records.filter((_, i) => recorded[i]),
  );
  return recorded;
}

/**
 * Brings each endpoint's count of failures in a row up to date with the attempts just written
 * (in the order they were made: a success resets the count) and makes inactive those that
 * reach the limit. Rows are locked in id order, so concurrent writers cannot deadlock, and only
 * when there is something to change: a success on an endpoint without failures writes nothing.
 */
async function countFailures(tx: Tx, records: AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  const byEndpoint = new Map<string, { endpoint_id: string; reset: boolean; failures: number; last_error: string }>();
  for (const { endpoint_id, attempt } of [...records].sort((a, b) =>
    a.attempt.attempted_at.localeCompare(b.attempt.attempted_at),
  )) {
    const entry = byEndpoint.get(endpoint_id) ?? { endpoint_id, reset: false, failures: 0, last_error: '' };
    if (attempt.succeeded) {
      entry.reset = true;
      entry.failures = 0;
    } else {
      entry.failures += 1;
      entry.last_error = attempt.error ?? '';
    }
    byEndpoint.set(endpoint_id, entry);
  }
  const counted = await executeSqlShaped<{ id: string; failures: number; active: boolean }>(
    tx,
    "endpoints' failures counted",
    () => sql`
    with v as (
      select * from json_to_recordset(${sql.placeholder('counts')}::json) as v(
        endpoint_id text, reset boolean, failures int)
    ),
    locked as (
      select e.id from ${webhookEndpoints} e join v on v.endpoint_id = e.id
      where v.failures > 0 or e.consecutive_failures <> 0
      order by e.id
      for update of e
    )
    update ${webhookEndpoints} e
    set consecutive_failures = case when v.reset then v.failures else e.consecutive_failures + v.failures end
    from v
    where e.id = v.endpoint_id and e.id in (select id from locked)
    returning e.id, e.consecutive_failures as failures, e.active`,
    { counts: JSON.stringify([...byEndpoint.values()]) },
  );
  for (const row of counted) {
    const entry = byEndpoint.get(row.id);
    if (row.active && entry && entry.failures > 0 && row.failures >= FAILURES_BEFORE_DEACTIVATION) {
      await deactivate(tx, row.id, entry.last_error);
    }
  }
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
      disabledAt: now(),
      updatedAt: now(),
    })
    .where(eq(webhookEndpoints.id, endpointId));
  await tx
    .update(webhookDeliveries)
    .set({ status: 'cancelled', nextAttemptAt: null, updatedAt: now() })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
  await enqueue(tx, 'notify_webhook_disabled', { endpoint_id: endpointId, last_error: lastError });
}
