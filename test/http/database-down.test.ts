/**
 * The database going away under a running API process (docs/api-conventions.md, "Generic
 * codes"): requests that need it get `503 database_unavailable` in the error shape, never a 500
 * and never a hang; liveness stays up, readiness goes down; and once the database is back the
 * process serves again by itself.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { auth } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';
import { cleanupDataDirs, makeDataDir, startCli, stopAllCli, waitForBanner } from '../helpers/process.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';

/** The error code of an answer in the error shape. */
async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

afterAll(async () => {
  await stopAllCli();
  await cleanupDataDirs();
});

describe('the database going away', () => {
  it('answers 503 database_unavailable while it is unreachable, and every process recovers by itself', async () => {
    const database = await createTestDatabase();
    const direct = new URL(database.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port) });
    const receiver = await startReceiver();
    try {
      const throughProxy = new URL(database.url);
      throughProxy.host = proxy.address;
      const env = {
        DATABASE_URL: throughProxy.toString(),
        SECRET_KEY: randomBytes(32).toString('hex'),
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      };
      const api = startCli(['api'], { ...env, PORT: '0', DATA_DIR: await makeDataDir() });
      const { base, ownerKey } = await waitForBanner(api);
      const worker = startCli(['worker'], { ...env, DATA_DIR: await makeDataDir() });
      await worker.waitFor(/is running\./, { timeoutMs: 60_000 });
      const headers = { ...auth(ownerKey as string), 'content-type': 'application/json' };
      const createProfile = (name: string) =>
        fetch(`${base}/v1/profiles`, { method: 'POST', headers, body: JSON.stringify({ name }) });
      expect((await createProfile('Before')).status).toBe(201);

      await proxy.down();
      const write = await createProfile('While down');
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).toBe('5');
      const body = await write.json();
      expect(body).toEqual({
        error: {
          code: 'database_unavailable',
          message: 'The database cannot be reached right now. Retry in a few seconds.',
          request_id: write.headers.get('request-id'),
        },
      });
      const read = await fetch(`${base}/v1/posts`, { headers });
      expect([read.status, await errorCode(read)]).toEqual([503, 'database_unavailable']);
      // A key this process has never seen must be looked up: that fails the same way.
      const unknownKey = await fetch(`${base}/v1/profiles`, { headers: auth(`sb_owner_${'x'.repeat(43)}`) });
      expect([unknownKey.status, await errorCode(unknownKey)]).toEqual([503, 'database_unavailable']);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect([ready.status, await errorCode(ready)]).toEqual([503, 'not_ready']);
      // What the operator reads: the cause, by request.
      await api.waitFor(/"msg":"request failed: database_unavailable"/);

      await proxy.up();
      await eventually(async () => ((await fetch(`${base}/readyz`)).status === 200 ? true : undefined), 30);
      const after = await createProfile('After');
      expect(after.status).toBe(201);
      const list = (await (await fetch(`${base}/v1/profiles`, { headers })).json()) as { data: { name: string }[] };
      expect(list.data.map((p) => p.name).sort()).toEqual(['After', 'Before', 'Default']);
      // The worker process holds its liveness lock again, so its death would still be seen.
      await worker.waitFor(/worker liveness restored/, { timeoutMs: 30_000 });
      const held = await database.db.transaction(async (tx) => {
        const { rows } = await tx.execute<{ free: boolean }>(
          sql`select pg_try_advisory_xact_lock(hashtextextended('switchboard-worker:' || id, 0)) as free from worker_processes`,
        );
        return rows;
      });
      expect(held).toEqual([{ free: false }]);
      // The worker process, which lost its connections too, takes new jobs again.
      const created = await fetch(`${base}/v1/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiver.url, events: ['post.published'] }),
      });
      expect(created.status).toBe(201);
      const endpoint = (await created.json()) as { id: string };
      const test = await fetch(`${base}/v1/webhooks/${endpoint.id}/test`, {
        method: 'POST',
        headers: auth(ownerKey as string),
      });
      expect(test.status).toBe(202);
      const [delivered] = await receiver.waitFor(1, 30_000);
      expect(JSON.parse(delivered?.body.toString() ?? '{}').type).toBe('webhook.test');
      expect((await worker.stop()).code).toBe(0);
      expect((await api.stop()).code).toBe(0);
    } finally {
      await receiver.close();
      await proxy.close();
      await database.close();
    }
  });
});
