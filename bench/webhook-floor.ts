/**
 * The webhook bench's floor with writes: the baseline's signed POSTs, with beside them the least
 * that a delivery's guarantees need written in PostgreSQL, as cheaply as one process can write it.
 *
 * The guarantees: an event's deliveries are durable when the transaction that makes the event
 * commits (none is lost), and each delivery's outcome is durable once its answer has arrived (none
 * is sent again after a restart, and its result can be shown). So the floor writes, in tables of its
 * own (schema `bench_floor`, with no index but their keys):
 *   - per event, one statement: its envelope and a row for each of its deliveries, `batch` events a
 *     transaction (as the bench's producer commits the service's events);
 *   - per answer, its status and duration in the delivery's row, written by a group commit (the
 *     service's `GroupCommit`, as its attempts are), and waited for before the slot sends again.
 * A delivery is sent only after its row is committed. It leaves out what the service also does:
 * a job queue (the senders take committed deliveries from memory), the retries' schedule and its
 * index, the events module's record of each event, a history of earlier deliveries. So it is a
 * lower bound of what durable deliveries cost this machine, not a design.
 *
 * `serviceTables` writes the same way into the service's own tables instead: each event as the
 * events module records it, its deliveries and each answer as the webhooks module writes them,
 * with every index those tables have. Only the job queue is left out then: what the service's
 * writes cost without it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import { GroupCommit } from '../src/db/group-commit.ts';
import { newUuid } from '../src/ids.ts';
import { envelopeOf, epochMs, writePaced } from './fanout.ts';
import { inTransaction } from './transaction.ts';

export const FLOOR_SCHEMA = 'bench_floor';

/** Makes the floor's tables anew, empty. */
export async function createFloorTables(pool: pg.Pool): Promise<void> {
  await dropFloorTables(pool);
  await pool.query(`create schema ${FLOOR_SCHEMA}`);
  await pool.query(`create table ${FLOOR_SCHEMA}.events (id uuid primary key, body text not null,
    created_at timestamptz not null default now())`);
  // Pages half full, as the service's deliveries are: an outcome's update stays on its page.
  await pool.query(`create table ${FLOOR_SCHEMA}.deliveries (id uuid primary key, event_id uuid not null,
    endpoint integer not null, status_code integer, duration_ms integer, attempted_at timestamptz)
    with (fillfactor = 50)`);
}

export async function dropFloorTables(pool: pg.Pool): Promise<void> {
  await pool.query(`drop schema if exists ${FLOOR_SCHEMA} cascade`);
}

export interface FloorOptions {
  events: number;
  endpoints: number;
  /** Events per transaction. */
  batch: number;
  /** POSTs in flight at most. */
  concurrency: number;
  /** Sends one delivery; returns its answer's status (200 for a success). */
  post: (endpoint: number, body: string, deliveryId: string) => Promise<number>;
  isInterrupted: () => boolean;
  /** Where it writes (floorTables when not given). */
  writes?: FloorWrites;
  /**
   * Events a second, each transaction started at its time with at most `inFlight` committing at
   * once, as the bench's paced runs offer theirs (bench/fanout.ts, `produce`); as fast as one
   * transaction after another when not given.
   */
  pace?: { rate: number; inFlight: number };
  /** Waits a while (a paced producer's sleep). */
  sleep?: (ms: number) => Promise<unknown>;
}

export interface FloorRun {
  deliveries: number;
  /** Answers written to their deliveries' rows. */
  recorded: number;
  /** Epoch ms when the first transaction's COMMIT returned. */
  firstCommit: number;
  /** Epoch ms when the last delivery's answer was read. */
  lastAnswer: number;
  /** Epoch ms when the last transaction's COMMIT returned. */
  lastCommit: number;
  /** Per delivery sent, ms from its transaction's COMMIT returning to its POST being sent, ascending. */
  waits: Float64Array;
  /** Per delivery answered, ms from that COMMIT to its answer read, ascending (its arrival lies between). */
  answered: Float64Array;
}

interface Delivery {
  id: string;
  endpoint: number;
  body: string;
  /** Epoch ms when its transaction's COMMIT returned. */
  committedAt: number;
}

interface FloorEvent {
  id: string;
  body: string;
  deliveries: { id: string; endpoint: number }[];
}

interface Outcome {
  id: string;
  status: number;
  ms: number;
  /** When the POST was sent, epoch ms. */
  at: number;
}

/** Where the floor writes: the statement of an event with its deliveries, and of answers. */
export interface FloorWrites {
  event(event: FloorEvent): pg.QueryConfig;
  /** Writes each answer to its delivery's row; its row count is the rows written. */
  record(outcomes: readonly Outcome[]): pg.QueryConfig;
}

/** The floor's own tables (createFloorTables): no index but their keys. */
export const floorTables: FloorWrites = {
  event: (event) => ({
    name: 'bench_floor_produce',
    text: `with made as (insert into ${FLOOR_SCHEMA}.events (id, body) values ($1, $2))
      insert into ${FLOOR_SCHEMA}.deliveries (id, event_id, endpoint)
      select id, $1, endpoint from unnest($3::uuid[], $4::integer[]) as d(id, endpoint)`,
    values: [event.id, event.body, event.deliveries.map((d) => d.id), event.deliveries.map((d) => d.endpoint)],
  }),
  record: (outcomes) => ({
    name: 'bench_floor_record',
    text: `update ${FLOOR_SCHEMA}.deliveries d set status_code = o.status, duration_ms = o.ms, attempted_at = now()
      from unnest($1::uuid[], $2::integer[], $3::integer[]) as o(id, status, ms) where d.id = o.id`,
    values: [outcomes.map((o) => o.id), outcomes.map((o) => o.status), outcomes.map((o) => o.ms)],
  }),
};

/**
 * The service's tables, as its modules write them (events, webhook_deliveries): an event of
 * `ownerId` with a delivery to each of `endpointIds` (by the floor's endpoint number), and an
 * answer as a first attempt in the delivery's row (a failed one due again in a minute, though no
 * job will make it: the floor fails its run at any failed POST).
 */
export function serviceTables(ownerId: string, endpointIds: readonly string[]): FloorWrites {
  return {
    event: (event) => ({
      name: 'bench_floor_service_produce',
      text: `with made as (insert into events (id, owner_id, profile_id, type, data, body, created_at)
          values ($1, $2, null, 'post.published', '{}'::jsonb, $3, now()))
        insert into webhook_deliveries (id, owner_id, endpoint_id, event_id, event_profile_id, status,
          attempt_count, next_attempt_at, created_at, updated_at)
        select d.id, $2, d.endpoint_id, $1, null, 'pending', 0, now(), now(), now()
        from unnest($4::uuid[], $5::text[]) as d(id, endpoint_id)`,
      values: [
        event.id,
        ownerId,
        event.body,
        event.deliveries.map((d) => d.id),
        event.deliveries.map((d) => endpointIds[d.endpoint] ?? ''),
      ],
    }),
    record: (outcomes) => ({
      name: 'bench_floor_service_record',
      text: `update webhook_deliveries d set attempt_count = 1,
          attempts = d.attempts || jsonb_build_array(jsonb_build_object('attempted_at', o.at, 'duration_ms', o.ms,
            'status_code', o.status, 'error', null, 'response_body', '', 'succeeded', o.status between 200 and 299)),
          status = case when o.status between 200 and 299 then 'succeeded' else 'pending' end,
          next_attempt_at = case when o.status not between 200 and 299 then o.at::timestamptz + interval '1 minute' end,
          updated_at = now()
        from unnest($1::uuid[], $2::integer[], $3::integer[], $4::text[]) as o(id, status, ms, at)
        where d.id = o.id and d.attempt_count = 0`,
      values: [
        outcomes.map((o) => o.id),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.ms),
        outcomes.map((o) => new Date(o.at).toISOString()),
      ],
    }),
  };
}

/**
 * Writes `events` events with a delivery to each endpoint and sends every delivery once its
 * row is committed, recording each answer; throws if any POST failed or was refused.
 */
export async function runDurableFloor(pool: pg.Pool, options: FloorOptions): Promise<FloorRun> {
  const { events, endpoints, batch, concurrency, post, isInterrupted, writes = floorTables, pace } = options;
  const sleep = options.sleep ?? delay;
  const committed: Delivery[] = [];
  const waits = new Float64Array(events * endpoints);
  const answered = new Float64Array(events * endpoints);
  let answers = 0;
  let taken = 0;
  let producing = true;
  let waiting: (() => void)[] = [];
  const wake = () => {
    for (const resume of waiting) resume();
    waiting = [];
  };
  let firstCommit = Number.NaN;
  let lastCommit = Number.NaN;
  let lastAnswer = Number.NaN;

  // One statement an event, as the service's changes emit them, `batch` events a transaction.
  const write = async (first: number, n: number) => {
    const made = Array.from({ length: n }, (_, i): FloorEvent => {
      const id = newUuid();
      const body = envelopeOf(id, first + i);
      return {
        id,
        body,
        deliveries: Array.from({ length: endpoints }, (_, endpoint) => ({ id: newUuid(), endpoint })),
      };
    });
    await inTransaction(pool, async (client) => {
      for (const event of made) await client.query(writes.event(event));
    });
    const at = epochMs();
    firstCommit = Number.isNaN(firstCommit) ? at : Math.min(firstCommit, at);
    lastCommit = Number.isNaN(lastCommit) ? at : Math.max(lastCommit, at);
    committed.push(...made.flatMap((e) => e.deliveries.map((d) => ({ ...d, body: e.body, committedAt: at }))));
    wake();
  };

  const produce = async () => {
    try {
      // Unpaced, one transaction after another, as the bench's burst commits the service's events.
      await writePaced({
        count: events,
        batch,
        rate: pace?.rate,
        inFlight: pace?.inFlight ?? 1,
        sleep,
        write,
        stop: isInterrupted,
      });
    } finally {
      producing = false;
      wake();
    }
  };

  let recorded = 0;
  const recorder = new GroupCommit<Outcome, void>(async (outcomes) => {
    // Read after the await: two writes may be in flight, and `+=` would read the count before it.
    const { rowCount } = await pool.query(writes.record(outcomes));
    recorded += rowCount ?? 0;
    return outcomes.map(() => undefined);
  });

  let failures = 0;
  let firstFailure = '';
  const send = async () => {
    for (;;) {
      if (isInterrupted()) return;
      const delivery = committed[taken];
      if (delivery === undefined) {
        if (!producing) return;
        await new Promise<void>((resume) => waiting.push(resume));
        continue;
      }
      const at = epochMs();
      waits[taken] = at - delivery.committedAt;
      taken += 1;
      const started = performance.now();
      let status: number;
      try {
        status = await post(delivery.endpoint, delivery.body, delivery.id);
      } catch (error) {
        failures += 1;
        firstFailure ||= (error as Error).message;
        continue;
      }
      lastAnswer = epochMs();
      answered[answers++] = lastAnswer - delivery.committedAt;
      if (status !== 200) {
        failures += 1;
        firstFailure ||= `answered ${status}`;
      }
      await recorder.submit({ id: delivery.id, status, ms: Math.round(performance.now() - started), at });
    }
  };

  // Every sender ends before this returns, even when another part failed.
  const ended = await Promise.allSettled([produce(), ...Array.from({ length: concurrency }, send)]);
  const failed = ended.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  if (failures > 0) throw new Error(`floor with writes: ${failures} POSTs failed, the first: ${firstFailure}`);
  return {
    deliveries: taken,
    recorded,
    firstCommit,
    lastCommit,
    lastAnswer,
    waits: waits.subarray(0, taken).sort(),
    answered: answered.subarray(0, answers).sort(),
  };
}
