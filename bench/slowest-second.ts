/**
 * Where a paced run's worst delays came from. A steady run's p99 is missed by a stretch in which
 * every event waits (a stall of a second or more, or a backlog growing where the service cannot
 * keep up), not by a few slow deliveries spread over the run. So the run is cut into the seconds
 * its events committed in, and the second whose worst delivery waited longest is split into its
 * two stages: commit → the attempt's start (the job queue and the worker) and the attempt's start
 * → its arrival (the POST), beside what PostgreSQL logged around it (checkpoints, autovacuum,
 * lock waits).
 */

export interface TimedDelivery {
  /** Epoch ms: the event's commit, the first attempt's start (the service's clock) and its arrival at the receiver. */
  commit: number;
  attempted: number;
  arrival: number;
}

export interface Stage {
  meanMs: number;
  maxMs: number;
}

export interface SlowestSecond {
  /** Epoch ms of the second's start (its events committed within it). */
  from: number;
  deliveries: number;
  /** The longest commit → arrival of its deliveries. */
  worstMs: number;
  queue: Stage;
  send: Stage;
}

function stage(values: number[]): Stage {
  let sum = 0;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    sum += v;
    if (v > max) max = v;
  }
  return { meanMs: sum / values.length, maxMs: max };
}

/** The second of commits whose worst delivery waited longest; undefined for no deliveries. */
export function slowestSecond(deliveries: readonly TimedDelivery[]): SlowestSecond | undefined {
  const seconds = new Map<number, { worst: number; members: TimedDelivery[] }>();
  for (const d of deliveries) {
    const second = Math.floor(d.commit / 1000) * 1000;
    const entry = seconds.get(second) ?? { worst: Number.NEGATIVE_INFINITY, members: [] };
    entry.worst = Math.max(entry.worst, d.arrival - d.commit);
    entry.members.push(d);
    seconds.set(second, entry);
  }
  let slowest: [number, { worst: number; members: TimedDelivery[] }] | undefined;
  for (const entry of seconds) if (slowest === undefined || entry[1].worst > slowest[1].worst) slowest = entry;
  if (slowest === undefined) return undefined;
  const [from, { worst, members }] = slowest;
  return {
    from,
    deliveries: members.length,
    worstMs: worst,
    queue: stage(members.map((d) => d.attempted - d.commit)),
    send: stage(members.map((d) => d.arrival - d.attempted)),
  };
}

/** What in PostgreSQL's log can hold up every transaction for a while. */
const STALLING = /checkpoint|automatic (vacuum|analyze)|still waiting|acquired|deadlock|terminat|could not/i;

/**
 * The lines of PostgreSQL's log (its default prefix, `%m [%p] `, times in UTC) stamped within
 * [fromMs, toMs] that tell of something that can stall transactions; each with its time.
 */
export function postgresLogBetween(log: string, fromMs: number, toMs: number): { at: number; line: string }[] {
  const found: { at: number; line: string }[] = [];
  for (const line of log.split('\n')) {
    const stamp = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) (UTC|GMT) /.exec(line);
    if (stamp === null) continue;
    const at = Date.parse(`${stamp[1]}T${stamp[2]}Z`);
    if (at < fromMs || at > toMs || !STALLING.test(line)) continue;
    found.push({ at, line: line.slice(stamp[0].length) });
  }
  return found;
}
