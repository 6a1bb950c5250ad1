import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Agent } from 'undici';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/connection.ts';
import { listenForChanges } from '../../src/http/read-cache.ts';
import { createMailer, type SendMail } from '../../src/mail.ts';
import { createKey } from '../../src/modules/api-keys/service.ts';
import { createOwner } from '../../src/modules/owners/service.ts';
import type { ProfileDeletionContext } from '../../src/modules/profiles/index.ts';
import type { DeliveryDeps } from '../../src/modules/webhooks/attempts.ts';
import { createOutboundAgent } from '../../src/outbound/http-client.ts';
import { createPlatforms, type PlatformSet } from '../../src/platforms/index.ts';
import { type RunningWorker, startWorker } from '../../src/worker.ts';
import { createTestDatabase } from './database.ts';
import { freePort } from './free-port.ts';
import { testResolver } from './resolver.ts';

export interface TestOwner {
  ownerId: string;
  defaultProfileId: string;
  /** Owner key. */
  key: string;
}

export interface TestApp {
  app: FastifyInstance;
  /**
   * With `{ listen: true }`: where the app listens (`http://127.0.0.1:<port>`), which is also its
   * PUBLIC_URL, so media URLs and the sandbox it serves are reachable over real HTTP.
   */
  url: string | undefined;
  database: Database;
  config: Config;
  /** The app's SECRET_KEY (random per test app). */
  secretKey: Buffer;
  /** A new owner with its default profile and owner key. */
  createOwner(name?: string): Promise<TestOwner>;
  /** A profile key for `profileId` of `ownerId`. */
  createProfileKey(ownerId: string, profileId: string): Promise<string>;
  /** Starts a graphile-worker pool on this database (stopped by close()). */
  startWorker(options?: {
    sendMail?: SendMail;
    platforms?: PlatformSet;
    /** Jobs run at once (default 4), and bulk jobs beside them (default WORKER_BULK_CONCURRENCY). */
    concurrency?: number;
    bulkConcurrency?: number;
    /** Where the worker logs (default: nowhere). */
    log?: pino.Logger;
    /** false: no periodic tasks, for a test that runs them itself (default true). */
    periodic?: boolean;
  }): Promise<RunningWorker>;
  /** Stops the workers started so far (a test that attempts deliveries itself must not race one). */
  stopWorkers(): Promise<void>;
  /** What attemptDeliveries needs, to make attempts without a worker (a test moving the clock). */
  deliveryDeps(): DeliveryDeps;
  /** What the profile deletion job runs with, to run it without a worker. */
  deletionContext(): ProfileDeletionContext;
  close(): Promise<void>;
}

/** The app as `npm start` builds it, on a database of its own, for `app.inject` requests. */
export async function startTestApp(
  env: Record<string, string> = {},
  extraRoutes?: (app: FastifyInstance) => void,
  options: {
    /** The adapters the connect pages use; by default a sandbox address nothing listens on (or, listening, the app's own sandbox). */
    platforms?: PlatformSet;
    /** Listen on a free port of 127.0.0.1, with PUBLIC_URL (and so the sandbox URL) pointing at it. */
    listen?: boolean;
    /** The app's logger (requests log through it); by default the app logs nothing. */
    log?: pino.Logger;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-app-'));
  const port = options.listen ? await freePort() : undefined;
  const url = port === undefined ? undefined : `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(url === undefined ? {} : { PUBLIC_URL: url, PORT: String(port) }),
    ...env,
  });
  const stopListening = listenForChanges(database.url, () => {});
  const secretKey = randomBytes(32);
  const platforms =
    options.platforms ??
    createPlatforms({
      ...config,
      sandboxUrl: config.sandboxUrl ?? 'http://127.0.0.1:9/sandbox',
      ...(url === undefined ? {} : { serviceUrl: url }),
    });
  const app = await buildApp({
    config,
    database,
    secretKey,
    resolver: testResolver,
    platforms: () => platforms,
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  extraRoutes?.(app);
  await app.ready();
  if (port !== undefined) await app.listen({ port, host: '127.0.0.1' });
  const runners: RunningWorker[] = [];
  const agents: Agent[] = [];
  let owners = 0;
  return {
    app,
    url,
    database,
    config,
    secretKey,
    createOwner: async (name) => {
      owners += 1;
      const created = await createOwner(database.db, {
        name: name ?? `Owner ${owners}`,
        email: `owner${owners}@example.test`,
      });
      return { ownerId: created.ownerId, defaultProfileId: created.defaultProfileId, key: created.apiKey };
    },
    createProfileKey: async (ownerId, profileId) => (await createKey(database.db, { ownerId, profileId })).key,
    startWorker: async (options = {}) => {
      const agent = createOutboundAgent({ allowPrivate: config.webhookAllowPrivateUrls, resolve: testResolver });
      const runner = await startWorker({
        db: database.db,
        pool: database.pool,
        databaseUrl: database.url,
        concurrency: options.concurrency ?? 4,
        bulkConcurrency: options.bulkConcurrency ?? config.workerBulkConcurrency,
        log: options.log ?? pino({ level: 'silent' }),
        secretKey,
        files: config,
        agent,
        // No sandbox listens for an app driven by inject(); a test that needs one passes its own.
        platforms: options.platforms ?? platforms,
        media: { db: database.db, secretKey, config },
        publishRetryWindowMs: config.publishRetryWindowMs,
        accountReconnectGraceMs: config.accountReconnectGraceMs,
        accountExpiringNoticeMs: config.accountExpiringNoticeMs,
        commentPollIntervalMs: config.commentPollIntervalMs,
        auditLogRetentionMs: config.auditLogRetentionMs,
        publicUrl: config.publicUrl,
        periodic: options.periodic,
        sendMail:
          options.sendMail ??
          createMailer({ smtpUrl: undefined, from: config.mailFrom, dataDir: config.dataDir, log: () => {} }),
        // Surfaces in the test run as an unhandled error, which fails it.
        onFailure: (error) => {
          throw error;
        },
      });
      runners.push(runner);
      agents.push(agent);
      return runner;
    },
    stopWorkers: async () => {
      for (const runner of runners.splice(0)) await runner.stop();
    },
    deletionContext: () => ({
      db: database.db,
      secretKey,
      files: config,
      platforms,
      log: pino({ level: 'silent' }),
    }),
    deliveryDeps: () => {
      const agent = createOutboundAgent({ allowPrivate: config.webhookAllowPrivateUrls, resolve: testResolver });
      agents.push(agent);
      return { db: database.db, secretKey, agent };
    },
    close: async () => {
      await app.close();
      for (const runner of runners) await runner.stop();
      for (const agent of agents) await agent.close();
      await stopListening();
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Headers for a request with `key`, and optionally a Service-Profile header. */
export function auth(key: string, profile?: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, ...(profile === undefined ? {} : { 'service-profile': profile }) };
}
