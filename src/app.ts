import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Type } from 'typebox';
import type { Config } from './config.ts';
import type { Database } from './db/connection.ts';
import { migrationsApplied } from './db/migrate.ts';
import { acceptedCaller, authenticate } from './http/auth.ts';
import { deferredSerializers } from './http/deferred-compile.ts';
import { clientErrorHandler, frameworkError, installErrorHandling, newRequestId } from './http/error-handler.ts';
import { ApiError } from './http/errors.ts';
import { checkActedOnHeaders } from './http/headers.ts';
import { installIdempotency } from './http/idempotency.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { installMetrics } from './http/metrics.ts';
import { rateLimitRedis } from './http/rate-limit-redis.ts';
import { postgresRateLimitStore } from './http/rate-limit-store.ts';
import { checkRouteRoles } from './http/route-roles.ts';
import { applySchemaDefaults, errorResponses } from './http/schemas.ts';
import { isCsrfTokenOf } from './http/session-lifetime.ts';
import { makeValidatorCompiler } from './http/validation.ts';
import { jobMetrics } from './jobs/metrics.ts';
import { mcpRoutes } from './mcp/http-route.ts';
import type { OpenApiDocument } from './mcp/openapi.ts';
import { sharedMetrics } from './metrics/shared.ts';
import { accountMetrics, accountRoutes, deauthorizeRoutes, optionValueRoutes } from './modules/accounts/index.ts';
import { apiKeyRoutes, findPrincipal, sessionRoutes, useSession } from './modules/api-keys/index.ts';
import { auditRoutes, installChangeRecording } from './modules/audit/index.ts';
import { catalogueRoutes } from './modules/catalogue/index.ts';
import { commentRoutes, platformWebhookRoutes } from './modules/comments/index.ts';
import { connectRoutes, logoRoutes } from './modules/connect/index.ts';
import { insightAnswers, insightRoutes } from './modules/insights/index.ts';
import { checkMediaStorage, mediaFileRoutes, mediaRoutes } from './modules/media/index.ts';
import { endMemberSession, isMemberSessionToken, memberRoutes, useMemberSession } from './modules/members/index.ts';
import { platformAppRoutes } from './modules/platform-apps/index.ts';
import { approvalLinkRoutes, postRoutes } from './modules/posts/index.ts';
import { findProfile, profileRoutes } from './modules/profiles/index.ts';
import { reportLinkRoutes, reportRoutes, scheduleReportRoutes } from './modules/reports/index.ts';
import { webhookRoutes } from './modules/webhooks/index.ts';
import { installModules } from './modules.ts';
import { type Resolver, systemResolver } from './outbound/address-policy.ts';
import type { PlatformSet } from './platforms/index.ts';
import { sandboxRoutes } from './sandbox/index.ts';
import { approvalPages } from './web/approval-pages.ts';
import { connectPages, connectPreviewRoutes } from './web/connect-pages.ts';
import { dashboardPages } from './web/dashboard.ts';
import { memberPages } from './web/member-pages.ts';
import { reportPages } from './web/report-pages.ts';

export interface AppOptions {
  config: Config;
  database: Database;
  /** SECRET_KEY (see secrets.ts): webhook secrets are stored encrypted under it. */
  secretKey: Buffer;
  /** How outbound hosts are resolved; the system resolver unless a test supplies one. */
  resolver?: Resolver;
  /** The service's pino logger; without it the app logs nothing (tests). */
  log?: Logger;
  /**
   * The platform adapters the connect flow uses. A function, as they may point at the
   * sandbox this very app serves, whose address is known only once it listens.
   */
  platforms: () => PlatformSet;
}

export const SERVICE_NAME = 'Switchboard';
export const SERVICE_VERSION = '0.1.0';

/** Builds the HTTP app: conventions first (ids, errors, limits, docs), then each module's routes. */
export async function buildApp({
  config,
  database,
  secretKey,
  resolver = systemResolver,
  log,
  platforms,
}: AppOptions): Promise<FastifyInstance> {
  installModules();
  const app = Fastify({
    ...(log ? { loggerInstance: log as FastifyBaseLogger } : { logger: false }),
    bodyLimit: config.bodyLimitBytes,
    // Behind a proxy it trusts, a request's address (rate limits, sign-in limits, the audit log) is the client's.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    genReqId: newRequestId,
    requestIdHeader: false,
    return503OnClosing: false,
    frameworkErrors: frameworkError,
    clientErrorHandler,
    // Fastify's default (0) lets a client that stops sending hold its connection forever.
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      // Node looks for expired requests every 30 s by default; a timeout should fire on time.
      connectionsCheckingInterval: 1000,
    },
    // Longer than any URL Node's HTTP parser lets through, so long path segments reach
    // the route schemas and get a validation error like any other bad value.
    routerOptions: { maxParamLength: 20_000 },
    schemaController: { compilersFactory: { buildSerializer: deferredSerializers() } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(makeValidatorCompiler());
  // JSON is the only body the API takes; anything else is 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('Request-Id', request.id);
  });
  installErrorHandling(app);

  await app.register(swagger, {
    // Shared schemas are named by their $id (`Profile`, `Error`), not `def-<n>`: the typed
    // client's types and any generated SDK take their names from here.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${SERVICE_NAME} API`,
        version: SERVICE_VERSION,
        description:
          'Social publishing for agencies: profiles, connected accounts, comments, insights, posts and signed webhooks. Conventions (errors, pagination, rate limits) are described in docs/api-conventions.md.',
      },
      // Without PUBLIC_URL the document's own origin is right (OpenAPI's default "/").
      ...(config.publicUrl ? { servers: [{ url: config.publicUrl }] } : {}),
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An owner key (`sb_owner_...`) or a profile key (`sb_profile_...`).',
          },
        },
      },
      security: [{ apiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  installMetrics(app, [jobMetrics(database.db), sharedMetrics(database.db), accountMetrics(database.db)]);
  // Session cookies on /v1 and the connect pages' trip cookies.
  await app.register(cookie);

  const health = { tags: ['Health'], security: [] };
  app.get(
    '/healthz',
    {
      schema: {
        ...health,
        summary: 'Liveness: the process answers',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        ...health,
        summary: 'Readiness: the database answers with every migration applied, and the media store answers',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), ...errorResponses(503) },
      },
    },
    async (request) => {
      const ready = await migrationsApplied(database.pool).catch(() => false);
      if (!ready) throw new ApiError(503, 'not_ready', 'The database is unreachable or not migrated yet.');
      const storeError = await checkMediaStorage(config).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (storeError) {
        request.log.warn({ err: storeError }, 'not ready: the media store cannot be used');
        throw new ApiError(503, 'not_ready', 'The media store is unreachable or cannot be written to.');
      }
      return { status: 'ready' as const };
    },
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  if (config.platforms === 'sandbox') {
    await app.register(sandboxRoutes({ db: database.db }), { prefix: '/sandbox' });
  }
  await app.register(dashboardPages());
  await app.register(connectPages({ db: database.db, secretKey, config, platforms }));
  await app.register(approvalPages({ db: database.db, secretKey, config }));
  await app.register(memberPages({ db: database.db, secretKey, config }));
  await app.register(deauthorizeRoutes({ db: database.db, platforms }));
  await app.register(
    platformWebhookRoutes({ db: database.db, platforms, verifyToken: config.platformWebhookVerifyToken }),
  );
  // Platforms fetch media here with a signed URL and no API key.
  await app.register(mediaFileRoutes({ db: database.db, secretKey, config }));

  const redis = config.redisUrl
    ? await rateLimitRedis(config.redisUrl, (message) => log?.warn({ component: 'rate-limit' }, message))
    : undefined;
  if (redis) {
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }

  // Where every process's rate limits are counted: in Redis when REDIS_URL is set, otherwise in the database.
  const limitStore = redis
    ? { redis, nameSpace: 'switchboard:rate-limit:' }
    : { store: postgresRateLimitStore(database.db) };
  await app.register(reportPages({ db: database.db, platforms, limitStore }));

  await app.register(async (v1) => {
    await v1.register(rateLimit, {
      global: false,
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      enableDraftSpec: true,
      // Per key, not per address: many clients share addresses, and one key is one user.
      // Only a key this process has accepted has a count of its own, so made-up keys cannot
      // each start a fresh count; every other request counts against its address.
      keyGenerator: (request) => acceptedCaller(request) ?? `ip:${request.ip}`,
      ...limitStore,
      // A store failing to count is no reason to refuse: the request goes on, and one that
      // needs the database gets its 503 there.
      skipOnError: true,
      errorResponseBuilder: (_request, context) =>
        new ApiError(
          429,
          'rate_limited',
          `Too many requests: at most ${context.max} a minute per API key (or per address, for requests without a key this server has accepted before). Retry after ${Math.ceil(context.ttl / 1000)} s.`,
        ),
    });
    v1.addHook('onRoute', applySchemaDefaults);
    v1.addHook('onRoute', checkRouteRoles);
    // Before authentication, so floods of wrong keys are limited too and never reach the database.
    v1.addHook('onRequest', v1.rateLimit());
    v1.addHook('onRequest', checkActedOnHeaders);
    v1.addHook(
      'onRequest',
      authenticate({
        findKey: (keyHash) => findPrincipal(database.db, keyHash),
        findProfileId: async (ownerId, ref) => (await findProfile(database.db, ownerId, ref))?.id,
        findSession: (token) =>
          isMemberSessionToken(token) ? useMemberSession(database.db, token) : useSession(database.db, token),
        isCsrfToken: (token, sent) => isCsrfTokenOf(secretKey, token, sent),
      }),
    );
    installIdempotency(v1, database.db);
    installChangeRecording(v1, database.db);
    await v1.register(
      sessionRoutes({
        db: database.db,
        secretKey,
        config,
        members: { end: (sessionId) => endMemberSession(database.db, sessionId) },
      }),
    );
    await v1.register(profileRoutes(database.db));
    await v1.register(apiKeyRoutes(database.db));
    await v1.register(accountRoutes({ db: database.db }));
    await v1.register(optionValueRoutes({ db: database.db, platforms, secretKey, log: app.log }));
    await v1.register(connectRoutes({ db: database.db, config, platforms }));
    await v1.register(logoRoutes(database.db));
    await v1.register(connectPreviewRoutes({ db: database.db, platforms }));
    await v1.register(postRoutes({ db: database.db, platforms, secretKey }));
    await v1.register(approvalLinkRoutes({ db: database.db, config }));
    await v1.register(commentRoutes({ db: database.db, platforms, secretKey, log: app.log }));
    await v1.register(
      insightRoutes({ db: database.db, platforms, answers: insightAnswers(config.insightsAnswerCacheMb) }),
    );
    await v1.register(mediaRoutes({ db: database.db, config, resolver }));
    await v1.register(reportRoutes({ db: database.db, platforms }));
    await v1.register(reportLinkRoutes({ db: database.db, config }));
    await v1.register(scheduleReportRoutes({ db: database.db, config, secretKey }));
    await v1.register(catalogueRoutes({ db: database.db, platforms }));
    await v1.register(platformAppRoutes({ db: database.db, secretKey, platforms }));
    await v1.register(auditRoutes(database.db));
    await v1.register(memberRoutes({ db: database.db, secretKey, config }));
    // The MCP endpoint: its tools are this API's operations, called with the request's own key.
    await v1.register(
      mcpRoutes({
        name: SERVICE_NAME,
        version: SERVICE_VERSION,
        document: () => app.swagger() as OpenApiDocument,
        inject: (options) => app.inject(options),
        publicOrigin: config.publicUrl ? new URL(config.publicUrl).origin : undefined,
      }),
    );
    await v1.register(
      webhookRoutes({
        db: database.db,
        secretKey,
        urlPolicy: { allowPrivate: config.webhookAllowPrivateUrls, resolve: resolver },
      }),
    );
  });

  return app;
}
