import { flushSharedMetrics } from '../../src/metrics/shared.ts';
import type { TestApp } from './app.ts';

/**
 * `/metrics` as Prometheus reads it, each sample by its series (`name{labels}`), after this
 * process has flushed what it counted (a running service does so every 10 s).
 */
export async function scrapeMetrics(t: TestApp): Promise<Map<string, number>> {
  await flushSharedMetrics(t.database.db);
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  const samples = new Map<string, number>();
  for (const line of res.body.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** How much each series grew between two scrapes (a series absent before counts from 0). */
export function growth(before: Map<string, number>, after: Map<string, number>): (series: string) => number {
  return (series) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
}
