import { doublePrecision, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * The counts behind the Prometheus counters and histograms that every process adds to (a
 * worker has no port to be scraped): one row per series and bucket, the sum of what every
 * process has flushed. `labels` is the series' labels as JSON with sorted keys; `bucket` is ''
 * for a counter, and for a histogram a bucket's upper bound (not cumulative), `+Inf`, `sum`
 * or `count`. Unlogged (see its migration): a crash of the database restarts the counts,
 * which Prometheus reads as a counter reset.
 */
export const metricCounts = pgTable(
  'metric_counts',
  {
    name: text('name').notNull(),
    labels: text('labels').notNull(),
    bucket: text('bucket').notNull(),
    value: doublePrecision('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.labels, t.bucket] })],
);
