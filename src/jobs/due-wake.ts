/**
 * A job started at its time. graphile-worker fetches jobs at every insert's notice and, once a
 * fetch has left it nothing to run, again a poll interval later: a job queued for later (a post
 * scheduled for 12:00:00) would start at the first poll after its time, up to a whole interval
 * late. So after each of a pool's fetches, the earliest job it takes that falls due before its
 * next poll is looked up, and the pool is woken then (graphile-worker's `nudge`, as an insert's
 * notice does); at once for one that fell due between the fetch and the lookup. A job a run of
 * this process moves to a later run (a step's next one, job-run.ts) sends no notice either, as
 * an update: its pool is woken at its time too. A wake that finds the job taken costs one fetch;
 * one that comes while the pool still hands out a batch it fetched is ignored, as the pool
 * fetches again once the batch is out. A job moved otherwise (graphile-worker's backoff after a
 * failure) is found at the pool's next fetch, or its poll.
 */
import type { WorkerEvents, WorkerPool } from 'graphile-worker';
import type pg from 'pg';
import { onJobMovedLater } from './job-run.ts';

/**
 * What a pool's lookup answers: `overdueAt`, the due time (ms since the epoch) of the latest
 * available job of its priorities that fell due within the last poll interval, which its fetch
 * did not take; and `ms`, how long until the earliest that falls due within the next one. Null
 * where there is none. Two index seeks a priority (graphile-worker's `jobs_main_index`, on
 * priority and due time, of the available jobs), however many jobs are queued for later. A
 * pool's priorities and poll interval never change, so they are written into the text, which
 * then has no parameter: each connection plans it once, where with them PostgreSQL planned it
 * again at about half its calls (a custom plan, for parameters it cannot estimate otherwise).
 */
function nextDueStatement(priorities: readonly number[], pollMs: number): { name: string; text: string } {
  const withinMs = Math.ceil(pollMs);
  const id = (n: number) => (n < 0 ? `m${-n}` : `${n}`);
  const first = (when: string, order: 'asc' | 'desc') => `left join lateral (
      select j.run_at from graphile_worker._private_jobs as j
      where j.is_available = true and j.priority = p.priority and ${when}
      order by j.run_at ${order} limit 1
    )`;
  return {
    name: `switchboard_due_jobs_${priorities.map(id).join('_')}_within_${withinMs}`,
    text: `select (extract(epoch from max(overdue.run_at)) * 1000)::float8 as overdue_at,
      (extract(epoch from min(soon.run_at) - now()) * 1000)::float8 as ms
    from unnest(array[${priorities.join(', ')}]::int[]) as p(priority)
    ${first(`j.run_at <= now() and j.run_at > now() - ${withinMs} * interval '1 millisecond'`, 'desc')} as overdue on true
    ${first(`j.run_at > now() and j.run_at <= now() + ${withinMs} * interval '1 millisecond'`, 'asc')} as soon on true`,
  };
}

/** How long a lookup may take before the pool is left to its next fetch or poll. */
const LOOKUP_TIMEOUT_MS = 10_000;

export interface DueWake {
  /**
   * The next job pool graphile-worker creates (its `pool:create`) takes the jobs of these
   * priorities, `fetchSize` at most a fetch (its local queue's size).
   */
  nextPool(priorities: readonly number[], fetchSize: number): void;
  /** No pool is woken from now on. */
  stop(): void;
}

/** Wakes each pool created after `nextPool` at its jobs' times, reading them through `db`. */
export function wakeAtDueTimes(events: WorkerEvents, db: Pick<pg.Pool, 'query'>): DueWake {
  const expected: { priorities: readonly number[]; fetchSize: number }[] = [];
  // Each pool's lookup statement is made at its first lookup, when its poll interval is known.
  const pools = new Map<
    string,
    { pool: WorkerPool; priorities: readonly number[]; fetchSize: number; statement?: { name: string; text: string } }
  >();
  const timers = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  // The latest overdue time each pool was woken for: a job its fetches cannot take (its task
  // unknown to this worker) would otherwise wake it again at every fetch, and one that falls due
  // after it is later still.
  const wokenFor = new Map<string, number>();
  let stopped = false;
  events.on('pool:create', ({ workerPool }) => {
    const declared = expected.shift();
    if (declared !== undefined) pools.set(workerPool.id, { pool: workerPool, ...declared });
  });
  events.on('pool:release', ({ workerPool }) => {
    pools.delete(workerPool.id);
    wokenFor.delete(workerPool.id);
    clearTimeout(timers.get(workerPool.id)?.timer);
    timers.delete(workerPool.id);
  });
  /** Wakes the pool at `at` (ms since the epoch), unless it is to be woken sooner or is released. */
  const wakeAt = (pool: WorkerPool, at: number) => {
    const pending = timers.get(pool.id);
    if (stopped || !pools.has(pool.id) || (pending !== undefined && pending.at <= at)) return;
    clearTimeout(pending?.timer);
    // A millisecond on: a fetch a little early finds nothing, and only looks again.
    const timer = setTimeout(
      () => {
        timers.delete(pool.id);
        if (!stopped) pool.nudge(1);
      },
      Math.max(0, Math.ceil(at - Date.now())) + 1,
    );
    timer.unref();
    timers.set(pool.id, { timer, at });
  };
  const unsubscribe = onJobMovedLater((priority, dueAtMs) => {
    for (const { pool, priorities } of pools.values()) if (priorities.includes(priority)) wakeAt(pool, dueAtMs);
  });
  // One lookup a pool at a time, and one more once it is answered if the pool fetched meanwhile:
  // a burst of fetches must not queue a burst of lookups for the connections the jobs need.
  const lookups = new Map<string, { again: boolean }>();
  const lookUp = (pool: WorkerPool, statement: { name: string; text: string }) => {
    lookups.set(pool.id, { again: false });
    // A lookup that is never answered (a connection gone half-open) would leave the pool to its
    // polls for good: pg's own timeout for one query, which its types do not name.
    const config: pg.QueryConfig & { query_timeout: number } = { ...statement, query_timeout: LOOKUP_TIMEOUT_MS };
    db.query<{ overdue_at: number | null; ms: number | null }>(config)
      .then(({ rows }) => {
        if (stopped || !pools.has(pool.id)) return;
        const { overdue_at: overdueAt = null, ms = null } = rows[0] ?? {};
        if (overdueAt !== null && overdueAt > (wokenFor.get(pool.id) ?? Number.NEGATIVE_INFINITY)) {
          // Fell due between the fetch and this lookup: the fetch after this wake takes it, and
          // its own lookup finds what comes next.
          wokenFor.set(pool.id, overdueAt);
          pool.nudge(1);
        } else if (ms !== null) wakeAt(pool, Date.now() + ms);
      })
      // Unread (the database away): the pool's next poll finds the job, as it would without this.
      .catch(() => {})
      .finally(() => {
        const again = lookups.get(pool.id)?.again === true;
        lookups.delete(pool.id);
        if (again && !stopped && pools.has(pool.id)) lookUp(pool, statement);
      });
  };
  events.on('localQueue:getJobs:complete', ({ localQueue, jobs }) => {
    const pool = localQueue.workerPool;
    const declared = pools.get(pool.id);
    // A full batch: the pool fetches again as soon as it is handed out, and looks up then. After
    // a fetch that took every job due, what is overdue at the lookup fell due after it.
    if (stopped || declared === undefined || jobs.length >= declared.fetchSize) return;
    declared.statement ??= nextDueStatement(declared.priorities, localQueue.pollInterval);
    const { statement } = declared;
    const running = lookups.get(pool.id);
    if (running !== undefined) running.again = true;
    else lookUp(pool, statement);
  });
  return {
    nextPool: (priorities, fetchSize) => {
      // Written into a statement's text (nextDueStatement): integers only, as graphile-worker's are.
      const wrong = priorities.find((n) => !Number.isSafeInteger(n));
      if (wrong !== undefined) throw new Error(`job priorities are integers; ${wrong} is not`);
      expected.push({ priorities, fetchSize });
    },
    stop: () => {
      stopped = true;
      unsubscribe();
      for (const { timer } of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
