/**
 * A job started at its time. graphile-worker fetches jobs at every insert's notice and, once a
 * fetch has left it nothing to run, again a poll interval later: a job queued for later (a post
 * scheduled for 12:00:00) would start at the first poll after its time, up to a whole interval
 * late. So after each of a pool's fetches, the earliest job it takes that falls due before its
 * next poll is looked up, and the pool is woken then (graphile-worker's `nudge`, as an insert's
 * notice does). A wake that finds the job taken, or a batch still being run, costs one fetch.
 */
import type { WorkerEvents } from 'graphile-worker';
import type pg from 'pg';

/**
 * How long until the earliest available job of `priorities` falls due, within the pool's poll
 * interval (`pollMs`); null when none does. One index seek a priority (graphile-worker's
 * `jobs_main_index`, on priority and due time, of the available jobs), however many jobs are
 * queued for later. A pool's priorities and poll interval never change, so they are written
 * into the text, which then has no parameter: each connection plans it once, where with them
 * PostgreSQL planned it again at about half its calls (a custom plan, for parameters it cannot
 * estimate otherwise).
 */
function nextDueStatement(priorities: readonly number[], pollMs: number): { name: string; text: string } {
  const withinMs = Math.ceil(pollMs);
  const id = (n: number) => (n < 0 ? `m${-n}` : `${n}`);
  return {
    name: `switchboard_next_due_job_${priorities.map(id).join('_')}_within_${withinMs}`,
    text: `select (extract(epoch from min(next.run_at) - now()) * 1000)::float8 as ms
    from unnest(array[${priorities.join(', ')}]::int[]) as p(priority)
    cross join lateral (
      select j.run_at from graphile_worker._private_jobs as j
      where j.is_available = true and j.priority = p.priority and j.run_at > now()
        and j.run_at <= now() + ${withinMs} * interval '1 millisecond'
      order by j.run_at limit 1
    ) as next`,
  };
}

export interface DueWake {
  /** The next job pool graphile-worker creates (its `pool:create`) takes the jobs of these priorities. */
  nextPool(priorities: readonly number[]): void;
  /** No pool is woken from now on. */
  stop(): void;
}

/** Wakes each pool created after `nextPool` at its jobs' times, reading them through `db`. */
export function wakeAtDueTimes(events: WorkerEvents, db: Pick<pg.Pool, 'query'>): DueWake {
  const expected: (readonly number[])[] = [];
  const prioritiesOf = new Map<string, readonly number[]>();
  const statements = new Map<string, { name: string; text: string }>();
  const timers = new Map<string, NodeJS.Timeout>();
  let stopped = false;
  events.on('pool:create', ({ workerPool }) => {
    const priorities = expected.shift();
    if (priorities !== undefined) prioritiesOf.set(workerPool.id, priorities);
  });
  events.on('localQueue:getJobs:complete', ({ localQueue }) => {
    const pool = localQueue.workerPool;
    const priorities = prioritiesOf.get(pool.id);
    if (stopped || priorities === undefined) return;
    let statement = statements.get(pool.id);
    if (statement === undefined) {
      statement = nextDueStatement(priorities, localQueue.pollInterval);
      statements.set(pool.id, statement);
    }
    db.query<{ ms: number | null }>(statement).then(
      ({ rows }) => {
        const ms = rows[0]?.ms ?? null;
        if (ms === null || stopped) return;
        clearTimeout(timers.get(pool.id));
        // A millisecond on: a fetch a little early finds nothing, and only looks again.
        const timer = setTimeout(() => {
          timers.delete(pool.id);
          if (!stopped) pool.nudge(1);
        }, Math.ceil(ms) + 1);
        timer.unref();
        timers.set(pool.id, timer);
      },
      // Unread (the database away): the pool's next poll finds the job, as it would without this.
      () => {},
    );
  });
  return {
    nextPool: (priorities) => {
      // Written into a statement's text (nextDueStatement): integers only, as graphile-worker's are.
      const wrong = priorities.find((n) => !Number.isSafeInteger(n));
      if (wrong !== undefined) throw new Error(`job priorities are integers; ${wrong} is not`);
      expected.push(priorities);
    },
    stop: () => {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
