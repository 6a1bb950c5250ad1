import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/connection.ts';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { createOwner } from '../../src/modules/owners/service.ts';
import { type RunningService, startService } from '../../src/service.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { postTargets } from '../helpers/tables.ts';

/** A whole service process (API and worker, as `npm start` runs them) stopped while its worker has jobs in hand. */

/** A publishing job's first call: the account's quota. */
const QUOTA_PATH = /^\/graph\.threads\.net\/v1\.0\/[^/]+\/threads_publishing_limit$/;

let sandbox: TestSandbox;
let database: Database;
let dataDir: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  // Containers ready at once: a publication is two runs of the job, one making the container
  // and one, 2 s on, reading it and publishing it.
  await sandbox.control('PUT', '/settings/container_processing_seconds', { value: 0 });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-shutdown-'));
});
afterAll(async () => {
  await sandbox.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});
// Each test is a deployment of its own: the jobs an earlier test's services left behind (an
// account's insight history, its comment polls) belong to another secret key, and would log
// errors in the next test's worker whenever they happen to still be queued.
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.close();
});

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger whose lines are kept, parsed, in `lines`. */
function keptLog(level = 'info'): { log: pino.Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const log = pino(
    { level },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line) as LogLine);
        done();
      },
    }),
  );
  return { log, lines };
}

/** The service as `npm start` runs it (API and worker) on the test database, the sandbox its platforms. */
async function startWholeService(log: pino.Logger, env: Record<string, string> = {}, secretKey = randomBytes(32)) {
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    SECRET_KEY: secretKey.toString('hex'),
    PORT: '0',
    HOST: '127.0.0.1',
    PLATFORMS: 'sandbox',
    SANDBOX_URL: sandbox.url,
    ...env,
  });
  const service = await startService(config, { api: true, worker: true }, log);
  return { service, secretKey };
}

/** A new owner with a Threads account connected as `username`. */
async function ownerWithAccount(service: RunningService, secretKey: Buffer, username: string) {
  const owner = await createOwner(service.database.db, { name: username, email: `${username}@example.test` });
  const tokens = await sandbox.connect('threads', username);
  const profile = await sandbox.adapter('threads').profile(tokens);
  const { account } = await service.database.db.transaction((tx) =>
    saveConnectedAccount(tx, secretKey, {
      ownerId: owner.ownerId,
      profileId: owner.defaultProfileId,
      platform: 'threads',
      tokens,
      profile,
    }),
  );
  return { owner, account };
}

/** A text post published at once on the account; answers its target's id. */
async function createPost(service: RunningService, key: string, accountId: string, text: string): Promise<string> {
  const created = await fetch(`${service.baseUrl}/v1/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ account_ids: [accountId], text }),
  });
  expect(created.status).toBe(201);
  const post = (await created.json()) as { targets: { id: string }[] };
  return post.targets[0]?.id ?? '';
}

describe('stopping a service whose worker is running a job', () => {
  it('lets the job finish its platform calls before closing what it uses, and logs no error', async () => {
    const { log, lines } = keptLog();
    const { service, secretKey } = await startWholeService(log);
    let stopped = false;
    try {
      const { owner, account } = await ownerWithAccount(service, secretKey, 'stop_midway');

      // The publishing job's first call (the quota) is held while the service is told to stop;
      // the call after it (the container) comes once it stopped taking requests.
      const held = sandbox.hold(QUOTA_PATH);
      const targetId = await createPost(service, owner.apiKey, account.id, 'Published while the service stops');
      await held.arrived;

      const stopping = service.stop().then(() => {
        stopped = true;
      });
      await eventually(async () =>
        fetch(`${service.baseUrl}/healthz`).then(
          () => undefined,
          () => true,
        ),
      );
      held.release();
      await stopping;

      // The job made its container and recorded it before the service closed what it uses.
      const [target] = await database.db.select().from(postTargets).where(eq(postTargets.id, targetId));
      expect(target).toMatchObject({ status: 'publishing', step: 'processing', containerId: expect.any(String) });
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      expect(lines.filter((line) => JSON.stringify(line).includes('client is closed'))).toEqual([]);

      // The next service reads that container and publishes it, once.
      const next = await startWholeService(keptLog().log, {}, secretKey);
      try {
        await eventually(async () => {
          const [row] = await database.db.select().from(postTargets).where(eq(postTargets.id, targetId));
          return row?.status === 'published' ? row : undefined;
        });
      } finally {
        await next.service.stop();
      }
      const activity = await sandbox.control('GET', '/activity/threads/stop_midway');
      expect(activity.body.data.filter((a: { action: string }) => a.action === 'publish')).toHaveLength(1);
    } finally {
      if (!stopped) await service.stop();
    }
  });
});

describe('stopping a service whose worker holds more jobs than it runs at once', () => {
  it('hands back the jobs it fetched but had not started, and logs no error', async () => {
    // graphile-worker's own lines too: its graceful shutdown says when it starts.
    const { log, lines } = keptLog('debug');
    // One job at a time, and a local queue of two: a job fetched while one runs waits in it.
    const { service, secretKey } = await startWholeService(log, { WORKER_CONCURRENCY: '1' });
    let stopped = false;
    try {
      const { owner, account } = await ownerWithAccount(service, secretKey, 'stop_busy');
      const held = sandbox.hold(QUOTA_PATH);
      const running = await createPost(service, owner.apiKey, account.id, 'Running while the service stops');
      await held.arrived;
      const waiting = [
        await createPost(service, owner.apiKey, account.id, 'Fetched, not started'),
        await createPost(service, owner.apiKey, account.id, 'Queued'),
      ];
      const lockedPublishJobs = async () => {
        const { rows } = await database.pool.query<{ n: number }>(
          `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'publish_target' and locked_at is not null`,
        );
        return rows[0]?.n ?? 0;
      };
      // The running job's and at least one more: fetched for a worker that is busy.
      await eventually(async () => ((await lockedPublishJobs()) >= 2 ? true : undefined));

      const stopping = service.stop().then(() => {
        stopped = true;
      });
      await eventually(async () => (lines.some((l) => l.msg === 'Attempting graceful shutdown') ? true : undefined));
      held.release();
      await stopping;

      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      const { rows: locked } = await database.pool.query(
        'select id, task_identifier, locked_by from graphile_worker.jobs where locked_at is not null',
      );
      expect(locked).toEqual([]);
      const published = async (ids: string[]) =>
        (await database.db.select().from(postTargets).where(inArray(postTargets.id, ids))).every(
          (t) => t.status === 'published',
        );
      // The running job ended its step: its container made and recorded.
      const [ran] = await database.db.select().from(postTargets).where(eq(postTargets.id, running));
      expect(ran).toMatchObject({ step: 'processing', containerId: expect.any(String) });

      // Handed back, the jobs the stopped worker never started are run by the next one, and the
      // running one's next step too.
      const next = await startWholeService(keptLog().log, {}, secretKey);
      try {
        await eventually(async () => ((await published([running, ...waiting])) ? true : undefined), 30);
      } finally {
        await next.service.stop();
      }
    } finally {
      if (!stopped) await service.stop();
    }
  });
});
