import { count } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/connection.ts';
import { accounts } from './tables.ts';

/**
 * `switchboard_accounts{platform,status}`: the connected accounts of every owner, read from the
 * database at each scrape. A rise of `expired` or `disconnected` is posts about to fail. When
 * the database does not answer, the scrape shows no series.
 */
export function accountMetrics(db: Db): (registry: Registry) => undefined {
  return (registry) => {
    new Gauge({
      name: 'switchboard_accounts',
      help: 'Accounts, by platform and status (connected, expired, disconnected).',
      labelNames: ['platform', 'status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const rows = await db
          .select({ platform: accounts.platform, status: accounts.status, n: count() })
          .from(accounts)
          .groupBy(accounts.platform, accounts.status)
          .catch(() => []);
        for (const r of rows) this.set({ platform: r.platform, status: r.status }, r.n);
      },
    });
  };
}
