/**
 * Counters and histograms that every process adds to and any API process shows. A worker
 * process has no port to be scraped, and a delivery, a publication or a platform call happens
 * in whichever process took the job; so each process adds up its own observations in memory
 * and flushes them into `metric_counts` every 10 seconds (and when it stops), one statement a
 * flush, never inside the work it counts. `/metrics` reads the sums at each scrape.
 *
 * A process killed without stopping loses its last 10 seconds of counts; Prometheus's
 * `rate()` and `increase()` are made for such gaps.
 */
import { sql } from 'drizzle-orm';
import { Counter, Histogram, type MetricObjectWithValues, type MetricValueWithName, type Registry } from 'prom-client';
import type { Db } from '../db/connection.ts';
import { metricCounts } from './tables.ts';

interface Definition {
  name: string;
  help: string;
  labelNames: readonly string[];
  /** A histogram's bucket upper bounds, ascending; none for a counter. */
  buckets?: readonly number[];
}

const definitions = new Map<string, Definition>();
/**
 * Deltas not yet flushed, by `name NUL labels NUL bucket`: no part holds a NUL (a metric's name
 * and a bucket are this module's, and JSON writes a NUL in a string escaped) → amount.
 */
const pending = new Map<string, number>();

function define(definition: Definition): void {
  if (definitions.has(definition.name)) throw new Error(`metric ${definition.name} is defined twice`);
  definitions.set(definition.name, definition);
}

/**
 * Writes a metric's labels as they are stored: JSON of the labels named at its definition, in
 * the order of their names. Made once per metric, as every platform call and delivery counts.
 */
function labelsWriter(names: readonly string[]): (labels: Readonly<Record<string, string>>) => string {
  const named = [...names].sort().map((name) => ({ name, prefix: `${JSON.stringify(name)}:` }));
  return (labels) => {
    let text = '';
    for (const { name, prefix } of named) {
      const value = labels[name];
      if (value !== undefined) text += `${text === '' ? '' : ','}${prefix}${JSON.stringify(value)}`;
    }
    return `{${text}}`;
  };
}

function add(name: string, labels: string, bucket: string, amount: number): void {
  const key = `${name}\u0000${labels}\u0000${bucket}`;
  pending.set(key, (pending.get(key) ?? 0) + amount);
}

export interface SharedCounter<L extends string> {
  inc(labels: Readonly<Record<L, string>>, amount?: number): void;
}

export interface SharedHistogram<L extends string> {
  observe(labels: Readonly<Record<L, string>>, value: number): void;
}

/** A counter (`name` ends in `_total`) that any process adds to. Define it once, at module level. */
export function sharedCounter<L extends string>(definition: {
  name: string;
  help: string;
  labelNames: readonly L[];
}): SharedCounter<L> {
  define(definition);
  const labelsText = labelsWriter(definition.labelNames);
  return {
    inc(labels, amount = 1) {
      add(definition.name, labelsText(labels), '', amount);
    },
  };
}

/** A histogram that any process observes into. Define it once, at module level. */
export function sharedHistogram<L extends string>(definition: {
  name: string;
  help: string;
  labelNames: readonly L[];
  buckets: readonly number[];
}): SharedHistogram<L> {
  const bounds = [...definition.buckets].sort((a, b) => a - b);
  define({ ...definition, buckets: bounds });
  const labelsText = labelsWriter(definition.labelNames);
  return {
    observe(labels, value) {
      const text = labelsText(labels);
      const bound = bounds.find((b) => value <= b);
      add(definition.name, text, bound === undefined ? '+Inf' : String(bound), 1);
      add(definition.name, text, 'sum', value);
      add(definition.name, text, 'count', 1);
    },
  };
}

/**
 * Adds what this process counted since the last flush to the shared sums. When the database
 * does not take them, they stay to be flushed next time: nothing counted is lost while the
 * process lives.
 */
export async function flushSharedMetrics(db: Db): Promise<void> {
  if (pending.size === 0) return;
  const taken = [...pending].map(([key, amount]) => {
    const [name, labels, bucket] = key.split('\u0000') as [string, string, string];
    return { name, labels, bucket, value: amount };
  });
  pending.clear();
  try {
    await db.execute(sql`insert into ${metricCounts} (name, labels, bucket, value)
      select name, labels, bucket, value from json_to_recordset(${JSON.stringify(taken)}::json)
        as v(name text, labels text, bucket text, value double precision)
      on conflict (name, labels, bucket) do update set value = ${metricCounts}.value + excluded.value`);
  } catch (error) {
    for (const row of taken) add(row.name, row.labels, row.bucket, row.value);
    throw error;
  }
}

/** Flushes every `intervalMs` until the returned stop, which flushes a last time. */
export function startSharedMetricsFlusher(
  db: Db,
  onError: (error: unknown) => void,
  intervalMs = 10_000,
): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const flush = () => {
    running = running.then(() => flushSharedMetrics(db).catch(onError));
    return running;
  };
  const timer = setInterval(flush, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await flush();
  };
}

interface CountRow {
  name: string;
  labels: string;
  bucket: string;
  value: number;
}

type Values = MetricObjectWithValues<MetricValueWithName<string>>['values'];

/** Stored labels (sorted, for one row per series) in the order the definition names them. */
function labelsOf(definition: Definition, text: string): Record<string, string> {
  const stored = JSON.parse(text) as Record<string, string>;
  const ordered: Record<string, string> = {};
  for (const name of definition.labelNames) {
    const value = stored[name];
    if (value !== undefined) ordered[name] = value;
  }
  return ordered;
}

/** The series of one definition, from the rows read for this scrape. */
function seriesOf(definition: Definition, rows: readonly CountRow[]): Values {
  const mine = rows.filter((r) => r.name === definition.name);
  if (!definition.buckets) return mine.map((r) => ({ labels: labelsOf(definition, r.labels), value: r.value }));
  const bounds = definition.buckets;
  const values: Values = [];
  for (const labels of new Set(mine.map((r) => r.labels))) {
    const of = (bucket: string) => mine.find((r) => r.labels === labels && r.bucket === bucket)?.value ?? 0;
    const parsed = labelsOf(definition, labels);
    let cumulative = 0;
    for (const bound of [...bounds.map(String), '+Inf']) {
      cumulative += of(bound);
      values.push({ metricName: `${definition.name}_bucket`, labels: { ...parsed, le: bound }, value: cumulative });
    }
    values.push({ metricName: `${definition.name}_sum`, labels: parsed, value: of('sum') });
    values.push({ metricName: `${definition.name}_count`, labels: parsed, value: of('count') });
  }
  return values;
}

/**
 * Registers the shared metrics and, before each scrape, reads their sums (one statement however
 * many there are). A metric defined after the app was built (its module imported later) is
 * registered at the next scrape. When the database does not answer, the scrape shows them
 * without series.
 */
export function sharedMetrics(db: Db): (registry: Registry) => () => Promise<void> {
  return (registry) => {
    let rows: CountRow[] = [];
    const registered = new Set<string>();
    const register = (definition: Definition) => {
      registered.add(definition.name);
      const options = {
        name: definition.name,
        help: definition.help,
        labelNames: definition.labelNames,
        registers: [registry],
      };
      if (!definition.buckets) {
        new Counter({
          ...options,
          collect() {
            this.reset();
            for (const { labels, value } of seriesOf(definition, rows)) this.inc(labels, value);
          },
        });
        return;
      }
      // prom-client's histograms take observations only; this one's buckets are already
      // counted, so it answers with them (its registry renders from getForPromString).
      const histogram = new Histogram({ ...options, buckets: [...definition.buckets] });
      const answer = async () =>
        ({
          name: definition.name,
          help: definition.help,
          type: 'histogram',
          aggregator: 'sum',
          values: seriesOf(definition, rows),
        }) as unknown as Awaited<ReturnType<typeof histogram.get>>;
      Object.assign(histogram, { get: answer, getForPromString: answer });
    };
    for (const definition of definitions.values()) register(definition);
    return async () => {
      for (const definition of definitions.values()) if (!registered.has(definition.name)) register(definition);
      rows = await db
        .select()
        .from(metricCounts)
        .catch(() => []);
    };
  };
}
