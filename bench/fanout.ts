/**
 * The webhook fan-out's parts that bench/webhooks.ts and bench/scale.ts share: endpoints on the
 * bench receiver, events written with the service's own `emit`, and the wait for their
 * deliveries to arrive.
 */
import type { Db } from '../src/db/connection.ts';
import { emit } from '../src/modules/events/index.ts';
import type { benchSteps } from './harness.ts';
import type { Receiver } from './receiver.ts';
import { BenchError, lastServerOutput, type Server } from './server.ts';

export const EVENT_TYPE = 'post.published';

type Steps = Pick<ReturnType<typeof benchSteps>, 'checkInterrupted' | 'sleep' | 'progress'>;

export const epochMs = () => performance.timeOrigin + performance.now();

export interface Endpoint {
  id: string;
  secret: string;
}

export async function createEndpoints(server: Server, receiver: Receiver, n: number): Promise<Endpoint[]> {
  const created: Endpoint[] = [];
  for (let i = 0; i < n; i++) {
    const response = await fetch(`${server.origin}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url('d', i), events: [EVENT_TYPE] }),
    });
    const text = await response.text();
    if (response.status !== 201) {
      throw new BenchError(`POST /v1/webhooks answered ${response.status}: ${text}${lastServerOutput()}`);
    }
    const body = JSON.parse(text) as { id: string; secret: string };
    created.push({ id: body.id, secret: body.secret });
  }
  return created;
}

/** What a published post's event carries: a realistic size (an envelope of about 400 bytes). */
export function eventData(n: number): Record<string, unknown> {
  const post = `post_${n.toString(36).padStart(8, '0')}`;
  const share = `urn:li:share:7300${String(n).padStart(15, '0')}`;
  return {
    post_id: post,
    account_id: 'acc_01jzbench0000000000000000',
    platform: 'linkedin',
    platform_post_id: share,
    url: `https://www.linkedin.com/feed/update/${share}/`,
    published_at: new Date().toISOString(),
  };
}

/** An event's envelope as the service serialises it when the event is written (its `body`). */
export function envelopeOf(id: string, n: number): string {
  return JSON.stringify({
    id,
    type: EVENT_TYPE,
    created_at: new Date().toISOString(),
    profile_id: null,
    data: eventData(n),
  });
}

export interface Produced {
  /** Event id → epoch ms when its transaction's COMMIT returned. */
  commits: Map<string, number>;
  /** Epoch ms when the first transaction began. */
  started: number;
  firstCommit: number;
  lastCommit: number;
}

/**
 * `count` events, `batch` per transaction, at most `inFlight` transactions committing at once (by
 * default one after another). Paced at `rate` events/s when given: each transaction starts at its
 * time unless `inFlight` are still under way. More than one lets a paced run offer its rate as the
 * service's requests and jobs emit side by side: one at a time, a producer whose transactions take
 * longer than their interval, on a busy database, offers less than its rate.
 */
export async function produce(
  db: Db,
  ownerId: string,
  count: number,
  batch: number,
  rate: number | undefined,
  steps: Steps,
  inFlight = 1,
): Promise<Produced> {
  const { checkInterrupted, sleep, progress } = steps;
  const commits = new Map<string, number>();
  let firstCommit = Number.NaN;
  let lastCommit = Number.NaN;
  const startedEpoch = epochMs();
  let reported = performance.now();
  await writePaced({
    count,
    batch,
    rate,
    inFlight,
    sleep,
    each: (done) => {
      checkInterrupted();
      if (done > 0 && performance.now() - reported > 5000) {
        reported = performance.now();
        progress(`${done} events ... `);
      }
    },
    write: async (first, n) => {
      const ids = await db.transaction(async (tx) => {
        const ids: string[] = [];
        for (let i = 0; i < n; i++) {
          const { id } = await emit(tx, { ownerId, profileId: null, type: EVENT_TYPE, data: eventData(first + i) });
          ids.push(id);
        }
        return ids;
      });
      const at = epochMs();
      for (const id of ids) commits.set(id, at);
      firstCommit = Number.isNaN(firstCommit) ? at : Math.min(firstCommit, at);
      lastCommit = Number.isNaN(lastCommit) ? at : Math.max(lastCommit, at);
    },
  });
  return { commits, started: startedEpoch, firstCommit, lastCommit };
}

/**
 * Calls `write(first, n)` for `count` items, `batch` a call (n is less only for the last), with at most
 * `inFlight` calls under way at once. Paced at `rate` items/s when given: each call starts at its time
 * unless `inFlight` are still under way; otherwise each as soon as a slot is free. `each(done)` runs
 * before each call is started (it may throw to stop the run); `stop()` ends the run early. Stops
 * starting calls at the first failure, waits for every call under way, then throws that failure.
 */
export async function writePaced(options: {
  count: number;
  batch: number;
  rate: number | undefined;
  inFlight: number;
  sleep: (ms: number) => Promise<unknown>;
  write: (first: number, n: number) => Promise<void>;
  each?: (done: number) => void;
  stop?: () => boolean;
}): Promise<void> {
  const { count, batch, rate, sleep, write, each, stop } = options;
  const started = performance.now();
  const pending = new Set<Promise<void>>();
  let failure: { reason: unknown } | undefined;
  for (let done = 0; done < count && failure === undefined && !stop?.(); ) {
    each?.(done);
    const n = Math.min(batch, count - done);
    if (rate !== undefined) {
      const wait = started + (done / rate) * 1000 - performance.now();
      if (wait > 0) await sleep(wait);
    }
    while (pending.size >= Math.max(1, options.inFlight)) await Promise.race(pending);
    const written: Promise<void> = write(done, n)
      .catch((reason: unknown) => {
        failure ??= { reason };
      })
      .finally(() => pending.delete(written));
    pending.add(written);
    done += n;
  }
  await Promise.all(pending);
  if (failure !== undefined) throw failure.reason;
}

/** Waits until `expected` distinct deliveries arrived; fails after `stallMs` without a new one. */
export async function awaitArrivals(
  receiver: Receiver,
  expected: number,
  stallMs: number,
  steps: Steps,
): Promise<void> {
  const { checkInterrupted, sleep, progress } = steps;
  let last = -1;
  let lastChange = performance.now();
  let reported = performance.now();
  for (;;) {
    checkInterrupted();
    const status = await receiver.status();
    if (status.distinct >= expected) return;
    if (status.distinct !== last) {
      last = status.distinct;
      lastChange = performance.now();
    } else if (performance.now() - lastChange > stallMs) {
      throw new BenchError(
        `${expected - status.distinct} of ${expected} deliveries had not arrived, and none arrived for ${stallMs / 1000} s${lastServerOutput()}`,
      );
    }
    if (performance.now() - reported > 5000) {
      reported = performance.now();
      progress(`${status.distinct} arrived ... `);
    }
    await sleep(50);
  }
}
