import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/connection.ts';
import { jobCounts, type TaskJobCounts } from './stats.ts';

const STATES = ['waiting', 'running', 'scheduled', 'failed'] as const;

/**
 * The job queue's gauges, read from the database at each scrape, so any API process shows the
 * whole queue (a worker process has no port): `switchboard_jobs{task,state}` and
 * `switchboard_job_lag_seconds{task}`. When the database does not answer, the scrape shows
 * neither rather than failing.
 */
export function jobMetrics(db: Db): (registry: Registry) => () => Promise<void> {
  return (registry) => {
    // Read once before each scrape (one statement), shown by both gauges.
    let counts: TaskJobCounts[] = [];
    new Gauge({
      name: 'switchboard_jobs',
      help: 'Background jobs in the queue, by task and state: waiting (due, not taken), running (taken by a worker), scheduled (due later, or waiting out a retry), failed (out of attempts).',
      labelNames: ['task', 'state'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const c of counts) for (const state of STATES) this.set({ task: c.task, state }, c[state]);
      },
    });
    new Gauge({
      name: 'switchboard_job_lag_seconds',
      help: 'How long the oldest waiting job of each task has been due, in seconds (0 when none waits).',
      labelNames: ['task'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const c of counts) this.set({ task: c.task }, c.lagSeconds);
      },
    });
    return async () => {
      counts = await jobCounts(db).catch(() => []);
    };
  };
}
