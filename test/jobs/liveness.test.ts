import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/http/scope.ts';
import { recoverJobsOfDeadWorkers } from '../../src/jobs/liveness.ts';
import { emit } from '../../src/modules/events/service.ts';
import { createOwner } from '../../src/modules/owners/service.ts';
import { createEndpoint } from '../../src/modules/webhooks/service.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { cleanupDataDirs, makeDataDir, pollUntil, startCli, stopAllCli } from '../helpers/process.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { testResolver } from '../helpers/resolver.ts';
import { webhookDeliveries, workerProcesses } from '../helpers/tables.ts';

afterEach(async () => {
  await stopAllCli();
  await cleanupDataDirs();
});

describe('a worker killed in the middle of deliveries', () => {
  it('loses nothing: a restarted worker delivers every event', async () => {
    const database = await createTestDatabase();
    // Holds every request until the first worker is dead, then answers 200.
    let answering = false;
    const receiver = await startReceiver((_req, res) => {
      if (answering) res.writeHead(200).end('ok');
    });
    try {
      const secretKey = randomBytes(32);
      const owner = await createOwner(database.db, { name: 'Crash test', email: 'crash@example.test' });
      const scope: Scope = {
        ownerId: owner.ownerId,
        profileId: null,
        visibleProfileIds: null,
        caller: { type: 'api_key', id: 'test', name: null, kind: 'owner' },
      };
      const { endpoint } = await createEndpoint(
        { db: database.db, secretKey, urlPolicy: { allowPrivate: true, resolve: testResolver } },
        scope,
        { url: receiver.url, events: ['post.published'] },
      );
      const env = {
        DATABASE_URL: database.url,
        SECRET_KEY: secretKey.toString('hex'),
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      };

      const first = startCli(['worker'], { ...env, DATA_DIR: await makeDataDir() });
      await first.waitFor(/is running\./, { timeoutMs: 60_000 });
      for (let i = 0; i < 5; i += 1) {
        await database.db.transaction((tx) =>
          emit(tx, { ownerId: owner.ownerId, profileId: null, type: 'post.published', data: { n: i } }),
        );
      }
      // The first worker has the deliveries in hand (their requests are open) when it dies.
      await receiver.waitFor(5, 20_000);
      first.child.kill('SIGKILL');
      expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
      const pending = await database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint.id));
      expect(pending.map((d) => d.status)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);

      answering = true;
      const second = startCli(['worker'], { ...env, DATA_DIR: await makeDataDir() });
      await second.waitFor(/is running\./, { timeoutMs: 60_000 });
      const allDelivered = await pollUntil(async () => {
        const rows = await database.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, endpoint.id));
        return rows.length === 5 && rows.every((d) => d.status === 'succeeded');
      }, 20_000);
      expect(allDelivered).toBe(true);
      // Every delivery reached the receiver again after the crash (at least once in all).
      const byDelivery = new Map<string, number>();
      for (const r of receiver.received) {
        const id = String(r.headers['service-delivery']);
        byDelivery.set(id, (byDelivery.get(id) ?? 0) + 1);
      }
      expect(byDelivery.size).toBe(5);
      for (const count of byDelivery.values()) expect(count).toBeGreaterThanOrEqual(2);
      expect(second.stdout).toMatch(/worker process .* is gone: unlocked the jobs it held/);

      expect(await second.stop()).toEqual({ code: 0, signal: null });
      // A clean stop leaves no record behind; the dead one was cleared by the sweep.
      expect(await database.db.select().from(workerProcesses)).toEqual([]);
    } finally {
      await receiver.close();
      await stopAllCli();
      await database.close();
    }
  }, 120_000);
});

describe('the sweep for gone worker processes', () => {
  it('unlocks the jobs of a recorded process whose lock is free, and never those of the process sweeping', async () => {
    const database = await createTestDatabase();
    try {
      // Neither process holds its lock, as after a server restart; each locks one job.
      await database.db.insert(workerProcesses).values([
        { id: 'sweeping', workerIds: ['pool-sweeping'], startedAt: new Date() },
        { id: 'other', workerIds: ['pool-other'], startedAt: new Date() },
      ]);
      for (const locker of ['pool-sweeping', 'pool-other']) {
        const job = await database.db.execute<{ id: string }>(
          sql`select id from graphile_worker.add_job('delete_profile', json_build_object('profile_id', ${locker}::text))`,
        );
        await database.db.execute(
          sql`update graphile_worker._private_jobs set locked_by = ${locker}, locked_at = now() where id = ${job.rows[0]?.id}`,
        );
      }
      const logged: string[] = [];
      expect(await recoverJobsOfDeadWorkers(database.db, (m) => logged.push(m), 'sweeping')).toBe(1);
      expect(logged).toEqual(['worker process other is gone: unlocked the jobs it held']);
      expect((await database.db.select().from(workerProcesses)).map((p) => p.id)).toEqual(['sweeping']);
      const jobs = await database.db.execute<{ profile_id: string; locked_by: string | null }>(
        sql`select payload->>'profile_id' as profile_id, locked_by from graphile_worker._private_jobs order by id`,
      );
      expect(jobs.rows).toEqual([
        { profile_id: 'pool-sweeping', locked_by: 'pool-sweeping' },
        { profile_id: 'pool-other', locked_by: null },
      ]);
    } finally {
      await database.close();
    }
  });
});
