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
 * A series's counts not yet flushed: by bucket (`''` for a counter; a histogram's bounds,
 * `+Inf`, `sum` and `count`) → amount. Kept under the series's labels as they are stored,
 * written once per series, not at every count.
 */
interface Pending {
  readonly name: string;
  readonly labels: string;
  readonly amounts: Map<string, number>;
}

/** The series counted since the last flush (or given back by a failed one). */
const pending = new Set<Pending>();

function define(definition: Definition): void {
  if (definitions.has(definition.name)) throw new Error(`metric ${definition.name} is defined twice`);
  definitions.set(definition.name, definition);
}

/**
 * Writes a metric's labels as they are stored: JSON of the labels named at its definition, in
 * the order of their names.
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

/**
 * A metric's series, found by its label values one map a label (a label left out is found under
 * `undefined`) rather than by a key written at every count: every platform call and delivery
 * counts, and a series's labels are written once, when it is first counted. A series is one
 * stored labels text: a value that is not a string (typed out, but JSON writes `null` and `NaN`
 * alike) is found by that text. Each series is kept for the process's life, so a label takes a
 * bounded set of values (a platform, an outcome), as Prometheus asks of every label.
 */
function seriesFinder(
  name: string,
  labelNames: readonly string[],
): (labels: Readonly<Record<string, string>>) => Pending {
  const names = [...labelNames].sort();
  const labelsText = labelsWriter(names);
  const byText = new Map<string, Pending>();
  const ofLabels = (labels: Readonly<Record<string, string>>): Pending => {
    const text = labelsText(labels);
    let series = byText.get(text);
    if (series === undefined) {
      series = { name, labels: text, amounts: new Map() };
      byText.set(text, series);
    }
    return series;
  };
  // With no label, one series, whatever is given.
  if (names.length === 0) {
    const only = ofLabels({});
    return () => only;
  }
  // By the value of each label but the last, a map; by the last one's, the series.
  const byValues = new Map<string | undefined, unknown>();
  return (labels) => {
    let level = byValues;
    for (let i = 0; i < names.length; i++) {
      const value = labels[names[i] as string];
      if (value !== undefined && typeof value !== 'string') return ofLabels(labels);
      const last = i === names.length - 1;
      let next = level.get(value);
      if (next === undefined) {
        next = last ? ofLabels(labels) : new Map<string | undefined, unknown>();
        level.set(value, next);
      }
      if (last) return next as Pending;
      level = next as Map<string | undefined, unknown>;
    }
    return ofLabels(labels);
  };
}

function add(series: Pending, bucket: string, amount: number): void {
  series.amounts.set(bucket, (series.amounts.get(bucket) ?? 0) + amount);
  pending.add(series);
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
  const seriesOf = seriesFinder(definition.name, definition.labelNames);
  return {
    inc(labels, amount = 1) {
      add(seriesOf(labels), '', amount);
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
  const seriesOf = seriesFinder(definition.name, definition.labelNames);
  const boundNames = bounds.map(String);
  return {
    observe(labels, value) {
      const series = seriesOf(labels);
      const bound = bounds.findIndex((b) => value <= b);
      add(series, bound === -1 ? '+Inf' : (boundNames[bound] as string), 1);
      add(series, 'sum', value);
      add(series, 'count', 1);
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
  const taken = [...pending].map((series) => {
    const amounts = [...series.amounts];
    series.amounts.clear();
    return { series, amounts };
  });
  pending.clear();
  const rows = taken.flatMap(({ series, amounts }) =>
    amounts.map(([bucket, value]) => ({ name: series.name, labels: series.labels, bucket, value })),
  );
  try {
    await db.execute(sql`insert into ${metricCounts} (name, labels, bucket, value)
      select name, labels, bucket, value from json_to_recordset(${JSON.stringify(rows)}::json)
        as v(name text, labels text, bucket text, value double precision)
      on conflict (name, labels, bucket) do update set value = ${metricCounts}.value + excluded.value`);
  } catch (error) {
    for (const { series, amounts } of taken) for (const [bucket, value] of amounts) add(series, bucket, value);
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
