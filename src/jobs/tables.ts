import { sql } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { timestampColumn } from '../db/columns.ts';

/**
 * Worker processes and the graphile-worker ids they run, so the jobs of one that died
 * (SIGKILL, a lost machine) can be unlocked at once rather than after graphile-worker's
 * 4 hours (liveness.ts).
 */
export const workerProcesses = pgTable('worker_processes', {
  id: text('id').primaryKey(),
  workerIds: text('worker_ids').array().notNull().default(sql`'{}'::text[]`),
  startedAt: timestampColumn('started_at').notNull(),
});
