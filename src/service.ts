import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Agent } from 'undici';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/connection.ts';
import { runMigrations } from './db/migrate.ts';
import { ApiError } from './http/errors.ts';
import { listenForChanges } from './http/read-cache.ts';
import { createMailer } from './mail.ts';
import { startSharedMetricsFlusher } from './metrics/shared.ts';
import { type CreatedOwner, createFirstOwnerIfNone } from './modules/owners/index.ts';
import { projectUnits } from './modules/posts/index.ts';
import { systemResolver } from './outbound/address-policy.ts';
import { createOutboundAgent } from './outbound/http-client.ts';
import { createPlatforms, type PlatformSet, SANDBOX_CLIENT } from './platforms/index.ts';
import { subscribeToSandboxPubsub, subscribeToSandboxWebhooks } from './sandbox/index.ts';
import { loadSecretKey } from './secrets.ts';
import { startWorker } from './worker.ts';

export interface Roles {
  api: boolean;
  worker: boolean;
}

export interface RunningService {
  database: Database;
  app?: FastifyInstance;
  /** Where the API listens, e.g. `http://localhost:8080`; undefined without the api role. */
  baseUrl?: string;
  /** Set on the first start with an empty database. */
  firstOwner?: CreatedOwner;
  /** Where the platform adapters point: the real platforms, or the sandbox at `sandboxUrl`. */
  platforms: PlatformSet;
  sandboxUrl: string;
  /** Stops taking requests, finishes those in flight, stops workers, leaves the database. */
  stop(): Promise<void>;
  /** Settles if a part of the service stops by itself (a job pool): the process should then stop. */
  failed: Promise<Error>;
}

/** SANDBOX_URL, else `/sandbox` under PUBLIC_URL or under this process's own address. */
function sandboxUrlOf(config: Config, baseUrl: string | undefined): string {
  return config.sandboxUrl ?? `${baseUrl ?? `http://localhost:${config.port}`}/sandbox`;
}

/** Starts the roles this process plays, on the configured database. */
export async function startService(config: Config, roles: Roles, log: Logger): Promise<RunningService> {
  const database = await openDatabase(
    config,
    (message) => log.info({ component: 'database' }, message),
    (['api', 'worker'] as const).filter((role) => roles[role]),
  );
  // What takes work in stops first, each in the order added (the API finishes its requests, then
  // the workers finish the jobs in hand); only then what that work uses (the HTTP clients), and
  // the database last. A client closed under a running job would fail it ("The client is closed").
  const stopIntake: (() => Promise<void>)[] = [];
  const stopClients: (() => Promise<void>)[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      for (const step of [...stopIntake, ...stopClients]) {
        await step().catch((error: unknown) => log.error({ err: error }, 'error while stopping'));
      }
      await database.close();
    })();
    return stopping;
  };
  try {
    const secretKey = await loadSecretKey(config.secretKey, config.dataDir);
    if (config.webhookAllowPrivateUrls) {
      log.warn(
        'WEBHOOK_ALLOW_PRIVATE_URLS=true: webhook URLs may use http, any port and private or loopback addresses. For local development and tests only; never in production.',
      );
    }
    if (config.platforms === 'live' && !config.publicUrl) {
      log.warn(
        `PUBLIC_URL is not set: platforms are handed media at http://localhost:${config.port}/media/..., which they cannot reach, so publishing with media fails; set PUBLIC_URL to the https address the internet reaches this service at`,
      );
    }
    if (!config.secretKey && !database.embedded) {
      log.warn(
        `SECRET_KEY is not set: using ${config.dataDir}/secret.key; every machine on this database needs the same key`,
      );
    }
    await runMigrations(database.pool, (message) => log.warn({ component: 'database' }, message));
    // After the work stops (its last counts included), before the database closes.
    const stopFlushing = startSharedMetricsFlusher(database.db, (error) =>
      log.warn({ component: 'metrics', err: error }, 'metrics not flushed to the database; kept for the next flush'),
    );
    stopClients.push(stopFlushing);
    const platformAgent = new Agent({ keepAliveTimeout: 10_000 });
    stopClients.push(() => platformAgent.close());
    const api: Pick<RunningService, 'app' | 'baseUrl' | 'firstOwner'> = {};
    let platforms: PlatformSet | undefined;
    const platformsFor = (baseUrl: string | undefined) => {
      platforms = createPlatforms(
        {
          ...config,
          sandboxUrl: sandboxUrlOf(config, baseUrl),
          serviceUrl: config.publicUrl ?? baseUrl ?? `http://localhost:${config.port}`,
        },
        // Every process counts a Google project's YouTube units in the same rows.
        { dispatcher: platformAgent, projectUnits: projectUnits(database.db) },
      );
      return platforms;
    };
    // Requests and jobs alike read through the cache (keys, profiles, the profiles being
    // deleted), which keeps nothing until this hears changes: a worker alone listens too.
    const stopListening = listenForChanges(database.url, (message) => log.warn({ component: 'read-cache' }, message));
    stopClients.push(stopListening);
    if (roles.api) {
      let app: FastifyInstance | undefined;
      stopIntake.push(async () => {
        await app?.close();
      });
      app = await buildApp({
        config,
        database,
        secretKey,
        log,
        // Set just below, once the address is known; the connect pages answer 503 until then.
        platforms: () => {
          if (!platforms) throw new ApiError(503, 'not_ready', 'The service is starting; try again in a moment.');
          return platforms;
        },
      });
      await app.listen({ port: config.port, host: config.host });
      const { port } = app.server.address() as AddressInfo;
      api.app = app;
      api.baseUrl = config.publicUrl ?? `http://localhost:${port}`;
      // Known only now: the sandbox mounted on this process answers at the address it listens on.
      platformsFor(api.baseUrl);
      // Only once the API answers, so the key printed next is usable at once and never
      // created by a start that then fails.
      api.firstOwner = await createFirstOwnerIfNone(database.db, config.firstOwner);
      const verifyToken = config.platformWebhookVerifyToken;
      if (config.platforms === 'sandbox' && verifyToken !== undefined) {
        // As a developer subscribes each Meta app once: the sandbox then sends comment notices here.
        const baseUrl = api.baseUrl;
        await subscribeToSandboxWebhooks(database.db, {
          baseUrl,
          verifyToken,
          appSecret: (platform) => config.platformCredentials[platform]?.clientSecret ?? SANDBOX_CLIENT.clientSecret,
        }).then(
          () =>
            log.info({ callback: `${baseUrl}/platform-webhooks/<platform>` }, 'sandbox comment webhooks subscribed'),
          (error: unknown) =>
            log.warn(
              { err: (error as Error).message },
              'could not subscribe to the sandbox comment webhooks; comments arrive by polling only',
            ),
        );
      }
      const topic = config.googleBusinessPubsubTopic;
      const pusher = config.googleBusinessPushServiceAccount;
      if (config.platforms === 'sandbox' && topic !== undefined && pusher !== undefined) {
        // As the operator subscribes the topic in Google Cloud: the sandbox then pushes review notifications here.
        const endpoint = `${api.baseUrl}/platform-webhooks/google_business`;
        await subscribeToSandboxPubsub(database.db, {
          topic,
          endpoint,
          serviceAccount: pusher,
          audience: config.googleBusinessPushAudience ?? endpoint,
        }).then(
          () => log.info({ topic, endpoint }, 'sandbox Pub/Sub push subscription made'),
          (error: unknown) =>
            log.warn(
              { err: (error as Error).message },
              'could not make the sandbox Pub/Sub push subscription; reviews arrive by polling only',
            ),
        );
      }
    }
    let fail: (error: Error) => void = () => {};
    const failed = new Promise<Error>((resolve) => {
      fail = resolve;
    });
    const running: RunningService = {
      database,
      stop,
      failed,
      ...api,
      sandboxUrl: sandboxUrlOf(config, api.baseUrl),
      platforms: platforms ?? platformsFor(undefined),
    };
    if (roles.worker) {
      const agent = createOutboundAgent({ allowPrivate: config.webhookAllowPrivateUrls, resolve: systemResolver });
      stopClients.push(() => agent.close());
      const runner = await startWorker({
        db: database.db,
        pool: database.pool,
        databaseUrl: database.url,
        concurrency: config.workerConcurrency,
        bulkConcurrency: config.workerBulkConcurrency,
        log,
        secretKey,
        files: config,
        agent,
        platforms: running.platforms,
        media: { db: database.db, secretKey, config },
        publishRetryWindowMs: config.publishRetryWindowMs,
        accountReconnectGraceMs: config.accountReconnectGraceMs,
        accountExpiringNoticeMs: config.accountExpiringNoticeMs,
        commentPollIntervalMs: config.commentPollIntervalMs,
        auditLogRetentionMs: config.auditLogRetentionMs,
        publicUrl: config.publicUrl,
        sendMail: createMailer({
          smtpUrl: config.smtpUrl,
          from: config.mailFrom,
          dataDir: config.dataDir,
          log: (message) => log.info({ component: 'mail' }, message),
        }),
        onFailure: fail,
      });
      stopIntake.push(() => runner.stop());
    }
    return running;
  } catch (error) {
    await stop();
    throw error;
  }
}
