import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/connection.ts';
import { saveConnectedAccount } from '../../src/modules/accounts/service.ts';
import { createOwner } from '../../src/modules/owners/service.ts';
import { startService } from '../../src/service.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { postTargets } from '../helpers/tables.ts';

/** A whole service process (API and worker, as `npm start` runs them) stopped while a job is in the middle of its platform calls. */

let sandbox: TestSandbox;
let database: Database;
let dataDir: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  // Containers ready at once: the whole publication is one run of the job.
  await sandbox.control('PUT', '/settings/container_processing_seconds', { value: 0 });
  database = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-shutdown-'));
});
afterAll(async () => {
  await database.close();
  await sandbox.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

describe('stopping a service whose worker is running a job', () => {
  it('lets the job finish its platform calls before closing what it uses, and logs no error', async () => {
    const lines: LogLine[] = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line) as LogLine);
          done();
        },
      }),
    );
    const secretKey = randomBytes(32);
    const config = loadConfig({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SECRET_KEY: secretKey.toString('hex'),
      PORT: '0',
      HOST: '127.0.0.1',
      PLATFORMS: 'sandbox',
      SANDBOX_URL: sandbox.url,
    });
    const service = await startService(config, { api: true, worker: true }, log);
    let stopped = false;
    try {
      const owner = await createOwner(service.database.db, { name: 'Stopping', email: 'stop@example.test' });
      const tokens = await sandbox.connect('threads', 'stop_midway');
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

      // The publishing job's first call (the quota) is held while the service is told to stop;
      // the calls after it (the container, its status, the publication) come once it stopped
      // taking requests.
      const held = sandbox.hold(/^\/graph\.threads\.net\/v1\.0\/[^/]+\/threads_publishing_limit$/);
      const created = await fetch(`${service.baseUrl}/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ account_ids: [account.id], text: 'Published while the service stops' }),
      });
      expect(created.status).toBe(201);
      const post = (await created.json()) as { targets: { id: string }[] };
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

      const [target] = await database.db
        .select()
        .from(postTargets)
        .where(eq(postTargets.id, post.targets[0]?.id ?? ''));
      expect(target?.status).toBe('published');
      const activity = await sandbox.control('GET', '/activity/threads/stop_midway');
      expect(activity.body.data.filter((a: { action: string }) => a.action === 'publish')).toHaveLength(1);
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      expect(lines.filter((line) => JSON.stringify(line).includes('client is closed'))).toEqual([]);
    } finally {
      if (!stopped) await service.stop();
    }
  });
});
