import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { type Static, type TOptional, type TString, Type } from 'typebox';
import { Value } from 'typebox/value';
import { DAY_MS } from './days.ts';
import { EmailText, NameText } from './http/schemas.ts';
import { PLATFORMS, type Platform, settingsPrefix } from './platforms/names.ts';
import { PLATFORM_SETTINGS, type PlatformSettingValues, type PlatformSettingVariable } from './platforms/registry.ts';

/** How long a pooled connection may stay unused, unless DB_IDLE_TIMEOUT_SECONDS says otherwise. */
export const DEFAULT_DB_IDLE_TIMEOUT_SECONDS = 300;

/**
 * Every setting the service reads, with its default. docs/settings.md documents each one;
 * keep the two in step.
 */
const SettingsSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+(/[^\\s]*)?$' })),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  SECRET_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/_=-]{43,88}$' })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 600 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, maximum: 100 * 1024 * 1024, default: 1024 * 1024 }),
  DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  // Far longer than pg's 10 s: work comes in bursts (posts due on the same minute, a thread taking
  // off) after quiet spells, and a burst met by new connections pays for each a server process
  // started and its caches filled, and for each statement a parse and five plans made afresh
  // before PostgreSQL settles on a generic one.
  DB_IDLE_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: DEFAULT_DB_IDLE_TIMEOUT_SECONDS }),
  INSIGHTS_ANSWER_CACHE_MB: Type.Integer({ minimum: 0, maximum: 65_536, default: 128 }),
  WORKER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 500, default: 40 }),
  WORKER_BULK_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 500, default: 4 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 30_000 }),
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 3_600_000, default: 60_000 }),
  HEADERS_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 1000, maximum: 3_600_000 })),
  WEBHOOK_ALLOW_PRIVATE_URLS: Type.Boolean({ default: false }),
  PUBLISH_RETRY_WINDOW_SECONDS: Type.Integer({ minimum: 60, maximum: 7 * 86_400, default: 3600 }),
  ACCOUNT_RECONNECT_GRACE_SECONDS: Type.Integer({ minimum: 0, maximum: 30 * 86_400, default: 3 * 86_400 }),
  ACCOUNT_EXPIRING_NOTICE_SECONDS: Type.Integer({ minimum: 3600, maximum: 60 * 86_400, default: 7 * 86_400 }),
  MEDIA_MAX_IMAGE_BYTES: Type.Integer({ minimum: 1024, default: 8 * 1024 * 1024 }),
  MEDIA_MAX_VIDEO_BYTES: Type.Integer({ minimum: 1024, default: 1024 * 1024 * 1024 }),
  MEDIA_MAX_DOCUMENT_BYTES: Type.Integer({ minimum: 1024, default: 100 * 1024 * 1024 }),
  MEDIA_URL_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 7 * 24 * 3600, default: 24 * 3600 }),
  COMMENT_POLL_INTERVAL_SECONDS: Type.Integer({ minimum: 60, maximum: 86_400, default: 900 }),
  AUDIT_LOG_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 36_500, default: 365 }),
  MEMBER_PASSWORDS: Type.Boolean({ default: false }),
  TRUST_PROXY: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  PLATFORM_WEBHOOK_VERIFY_TOKEN: Type.Optional(
    Type.String({ minLength: 8, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' }),
  ),
  S3_BUCKET: Type.Optional(Type.String({ minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9.-]+[a-z0-9]$' })),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+/?$' })),
  S3_REGION: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9-]+$', default: 'us-east-1' }),
  S3_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 256, pattern: '^\\S+$' })),
  S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1, maxLength: 256, pattern: '^\\S+$' })),
  S3_FORCE_PATH_STYLE: Type.Optional(Type.Boolean()),
  S3_PRESIGNED_URLS: Type.Boolean({ default: false }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ minLength: 3, maxLength: 320, default: 'Switchboard <switchboard@localhost>' }),
  FIRST_OWNER_NAME: Type.Intersect([NameText(200, 'name of the first owner')], { default: 'Owner' }),
  FIRST_OWNER_EMAIL: Type.Intersect([EmailText], { default: 'owner@localhost' }),
  PLATFORMS: Type.Optional(Type.Union([Type.Literal('sandbox'), Type.Literal('live')])),
  SANDBOX_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+(/[^\\s]*)?$' })),
  ...platformCredentialSettings(),
});

type SettingsPrefix = Uppercase<Platform>;
type CredentialSettings = {
  [Name in `${SettingsPrefix}_CLIENT_ID` | `${SettingsPrefix}_CLIENT_SECRET`]: TOptional<TString>;
};

/**
 * `<PREFIX>_CLIENT_ID` and `<PREFIX>_CLIENT_SECRET` for each platform of the registry, and the
 * settings a platform's definition declares beside them, each validated by its own schema.
 */
function platformCredentialSettings() {
  const text = Type.String({ minLength: 1, maxLength: 500, pattern: '^\\S+$' });
  const settings: Record<string, TOptional<TString>> = {};
  for (const platform of PLATFORMS) {
    const prefix = settingsPrefix(platform);
    settings[`${prefix}_CLIENT_ID`] = Type.Optional(text);
    settings[`${prefix}_CLIENT_SECRET`] = Type.Optional(text);
  }
  for (const { setting } of PLATFORM_SETTINGS) settings[setting.variable] = Type.Optional(setting.schema);
  return settings as CredentialSettings & { [Variable in PlatformSettingVariable]: TOptional<TString> };
}

/** The declared platform settings' values, each under its name in the service's settings. */
function platformSettingValues(settings: Settings): PlatformSettingValues {
  return Object.fromEntries(
    PLATFORM_SETTINGS.map(({ configName, setting }) => [
      configName,
      settings[setting.variable as PlatformSettingVariable],
    ]),
  ) as PlatformSettingValues;
}

/** What the adapter is handed for a platform setting left unset. */
function settingDefault(variable: PlatformSettingVariable): string | undefined {
  return PLATFORM_SETTINGS.find(({ setting }) => setting.variable === variable)?.setting.default;
}

/** Headers come first and are small: a client still sending them after this is stalling. */
const DEFAULT_HEADERS_TIMEOUT_MS = 20_000;

type Settings = Static<typeof SettingsSchema>;

/** The S3-compatible store media files live in (S3_*), when S3_BUCKET is set. */
export interface S3Settings {
  bucket: string;
  /** The store's address; unset: AWS S3 in `region`. */
  endpoint: string | undefined;
  region: string;
  /** Unset: the AWS SDK's own chain (environment, instance role, ...). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`: most stores other than AWS want it. */
  forcePathStyle: boolean;
  /**
   * Platforms fetch media straight from the store by a presigned URL (the store must be reachable
   * from the internet), instead of from the service by its own signed URL.
   */
  presignedUrls: boolean;
}

/** Where media files are kept: the S3-compatible store when one is set, else DATA_DIR/media. */
export type FileStoreSettings = Pick<Config, 'dataDir' | 's3'>;

/**
 * The service's settings; beside these, each setting a platform's definition declares, under its
 * variable's name in camelCase (`THREADS_TESTER_TOKEN`: `threadsTesterToken`).
 */
export interface Config extends PlatformSettingValues {
  port: number;
  host: string;
  /** Where users reach the service; used in printed URLs and links we hand out. */
  publicUrl: string | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
  /** The S3-compatible store for media files; undefined: files under DATA_DIR/media. */
  s3: S3Settings | undefined;
  secretKey: string | undefined;
  logLevel: string;
  rateLimitPerMinute: number;
  /** Where the rate limit counts (REDIS_URL); unset: in the database. */
  redisUrl: string | undefined;
  bodyLimitBytes: number;
  dbPoolSize: number;
  /** How long a pooled connection may stay unused before it is closed. */
  dbIdleTimeoutSeconds: number;
  /** Megabytes of rendered account insights each API process keeps (0: none); see insights/answers.ts. */
  insightsAnswerCacheMb: number;
  workerConcurrency: number;
  /** Bulk jobs (insights readings, comment polls) each worker process runs at once, beside the others. */
  workerBulkConcurrency: number;
  shutdownTimeoutMs: number;
  /** How long a client may take to send a whole request, headers and body (then 408). */
  requestTimeoutMs: number;
  /** How long a client may take to send a request's headers (then 408); at most requestTimeoutMs. */
  headersTimeoutMs: number;
  firstOwner: { name: string; email: string };
  /** Development and tests only: webhook URLs may use http, any port, private addresses. */
  webhookAllowPrivateUrls: boolean;
  /** How long a try at publishing a target retries passing platform failures before it fails. */
  publishRetryWindowMs: number;
  /**
   * How long a target whose time has come waits for its expired account to be reconnected
   * before it fails with `account_not_connected`.
   */
  accountReconnectGraceMs: number;
  /** How long before an account's access ends for good (no refresh can extend it) `account.expiring` is sent. */
  accountExpiringNoticeMs: number;
  /**
   * The largest image and video `POST /v1/media` takes. Defaults near the platforms' own:
   * Instagram and Threads take images up to 8 MB; Threads videos up to 1 GB (Instagram reels
   * 300 MB, TikTok 4 GB: the posts module checks a platform's own limit per target).
   */
  mediaMaxImageBytes: number;
  mediaMaxVideoBytes: number;
  mediaMaxDocumentBytes: number;
  /** How long a signed media URL handed to a platform stays valid. */
  mediaUrlTtlSeconds: number;
  /** How often each account's recent posts are read for comments (the webhooks' safety net). */
  commentPollIntervalMs: number;
  /** How long audit entries are kept before the hourly clean-up deletes them. */
  auditLogRetentionMs: number;
  /** MEMBER_PASSWORDS: members may set a password and sign in with it, besides e-mailed links. */
  memberPasswords: boolean;
  /**
   * TRUST_PROXY: which proxies' X-Forwarded-For gives a request's address (Fastify's
   * `trustProxy`): none (false), every one (true), so many hops, or these addresses and ranges.
   */
  trustProxy: boolean | number | string[];
  /**
   * What the platforms' webhook subscription handshake must send as `hub.verify_token`
   * (PLATFORM_WEBHOOK_VERIFY_TOKEN); in sandbox mode `switchboard-sandbox` when unset. Unset in
   * live mode: every handshake is refused.
   */
  platformWebhookVerifyToken: string | undefined;
  /** Where e-mail goes; without it, messages are written under DATA_DIR/mail. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * `sandbox`: every platform adapter calls the sandbox at `sandboxUrl`; `live`: the real
   * platforms, with the credentials below. Sandbox unless some platform credentials are set.
   */
  platforms: 'sandbox' | 'live';
  /**
   * Where the sandbox platforms answer: SANDBOX_URL, else `/sandbox` under PUBLIC_URL; undefined
   * means `/sandbox` on this process's own address (known once it listens).
   */
  sandboxUrl: string | undefined;
  /** Client id and secret per platform; a platform without them is unavailable in live mode. */
  platformCredentials: Partial<Record<Platform, { clientId: string; clientSecret: string }>>;
}

/** The sandbox's webhook handshake token when none is set: the sandbox is made-up data anyway. */
export const SANDBOX_VERIFY_TOKEN = 'switchboard-sandbox';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const SETTING_NAMES = Object.keys(SettingsSchema.properties) as (keyof Settings)[];

/**
 * The settings that are whole numbers. Each must be written as one in decimal: TypeBox's
 * conversion alone would take `1.5` as 1 and `0x10` or `1e1` as 16 or 10, silently.
 */
const INTEGER_SETTINGS = SETTING_NAMES.filter(
  (name) => (SettingsSchema.properties[name] as { type?: unknown }).type === 'integer',
);
const WHOLE_DECIMAL = /^-?\d+$/;

/** TRUST_PROXY as Fastify takes it, or what is wrong with it. */
function trustedProxies(value: string | undefined): boolean | number | string[] | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value.split(',').map((e) => e.trim());
  // Written out in full: ipaddr.js would also take `100` or `1.2` for an IPv4 address.
  const bad = entries.filter(
    (e) =>
      !(
        ipaddr.IPv4.isValidFourPartDecimal(e) ||
        ipaddr.IPv6.isValid(e) ||
        ipaddr.IPv4.isValidCIDRFourPartDecimal(e) ||
        ipaddr.IPv6.isValidCIDR(e)
      ),
  );
  if (bad.length > 0) {
    return `TRUST_PROXY must be true, false, a number of hops, or addresses and ranges (CIDR) separated by commas: ${bad.map((b) => JSON.stringify(b)).join(', ')} is none`;
  }
  return entries;
}

/** Reads and validates the settings; throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const name of SETTING_NAMES) {
    const value = env[name];
    // An empty variable means "not set", as in most shells' `FOO= cmd`.
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const notWhole = INTEGER_SETTINGS.filter((name) => raw[name] !== undefined && !WHOLE_DECIMAL.test(raw[name]));
  // A copy: Convert changes what it is given, and errors show each value as it was written.
  const settings = Value.Default(SettingsSchema, Value.Convert(SettingsSchema, { ...raw })) as Settings;
  const errors = [...Value.Errors(SettingsSchema, settings)];
  if (errors.length > 0 || notWhole.length > 0) {
    const lines = [
      ...notWhole.map((name) => `${name}=${shownValue(name, raw[name])}: must be integer`),
      ...errors.flatMap((e) => {
        const name = e.instancePath.replace(/^\//, '');
        return notWhole.includes(name as keyof Settings)
          ? []
          : [`${name}=${shownValue(name, raw[name] ?? '')}: ${e.message}`];
      }),
    ];
    throw new ConfigError(`invalid settings: ${[...new Set(lines)].join('; ')}`);
  }
  const platformCredentials: Config['platformCredentials'] = {};
  const crossErrors: string[] = [];
  for (const platform of PLATFORMS) {
    const prefix = settingsPrefix(platform);
    const clientId = settings[`${prefix}_CLIENT_ID`];
    const clientSecret = settings[`${prefix}_CLIENT_SECRET`];
    if (clientId !== undefined && clientSecret !== undefined)
      platformCredentials[platform] = { clientId, clientSecret };
    else if (clientId !== undefined || clientSecret !== undefined) {
      crossErrors.push(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
    }
  }
  if (settings.HEADERS_TIMEOUT_MS !== undefined && settings.HEADERS_TIMEOUT_MS > settings.REQUEST_TIMEOUT_MS) {
    crossErrors.push(
      `HEADERS_TIMEOUT_MS=${JSON.stringify(String(settings.HEADERS_TIMEOUT_MS))}: must not be more than REQUEST_TIMEOUT_MS (${settings.REQUEST_TIMEOUT_MS})`,
    );
  }
  const unitsADay = Number(settings.YOUTUBE_DAILY_QUOTA_UNITS ?? settingDefault('YOUTUBE_DAILY_QUOTA_UNITS'));
  const reserve = Number(settings.YOUTUBE_QUOTA_RESERVE_UNITS ?? settingDefault('YOUTUBE_QUOTA_RESERVE_UNITS'));
  if (reserve >= unitsADay) {
    crossErrors.push(
      `YOUTUBE_QUOTA_RESERVE_UNITS=${reserve}: must be less than YOUTUBE_DAILY_QUOTA_UNITS (${unitsADay}), or comment polls and insight reads would never run`,
    );
  }
  const pushTopic = settings.GOOGLE_BUSINESS_PUBSUB_TOPIC;
  if ((pushTopic === undefined) !== (settings.GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT === undefined)) {
    crossErrors.push(
      'GOOGLE_BUSINESS_PUBSUB_TOPIC and GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT must be set together: a push is checked against the service account',
    );
  }
  if (
    pushTopic !== undefined &&
    settings.PLATFORMS === 'live' &&
    settings.PUBLIC_URL === undefined &&
    settings.GOOGLE_BUSINESS_PUSH_AUDIENCE === undefined
  ) {
    crossErrors.push(
      "GOOGLE_BUSINESS_PUBSUB_TOPIC needs PUBLIC_URL (or GOOGLE_BUSINESS_PUSH_AUDIENCE): Google's pushes are made for the address Pub/Sub reaches the service at",
    );
  }
  const s3 = s3Settings(settings, crossErrors);
  const trustProxy = trustedProxies(settings.TRUST_PROXY);
  if (typeof trustProxy === 'string') crossErrors.push(trustProxy);
  if (crossErrors.length > 0) throw new ConfigError(`invalid settings: ${crossErrors.join('; ')}`);
  const publicUrl = settings.PUBLIC_URL?.replace(/\/+$/, '');
  const platforms = settings.PLATFORMS ?? (Object.keys(platformCredentials).length > 0 ? 'live' : 'sandbox');
  return {
    port: settings.PORT,
    host: settings.HOST,
    publicUrl,
    databaseUrl: settings.DATABASE_URL,
    dataDir: path.resolve(settings.DATA_DIR),
    s3,
    secretKey: settings.SECRET_KEY,
    logLevel: settings.LOG_LEVEL,
    rateLimitPerMinute: settings.RATE_LIMIT_PER_MINUTE,
    redisUrl: settings.REDIS_URL,
    bodyLimitBytes: settings.BODY_LIMIT_BYTES,
    dbPoolSize: settings.DB_POOL_SIZE,
    dbIdleTimeoutSeconds: settings.DB_IDLE_TIMEOUT_SECONDS,
    insightsAnswerCacheMb: settings.INSIGHTS_ANSWER_CACHE_MB,
    workerConcurrency: settings.WORKER_CONCURRENCY,
    workerBulkConcurrency: settings.WORKER_BULK_CONCURRENCY,
    shutdownTimeoutMs: settings.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: settings.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: settings.HEADERS_TIMEOUT_MS ?? Math.min(DEFAULT_HEADERS_TIMEOUT_MS, settings.REQUEST_TIMEOUT_MS),
    firstOwner: { name: settings.FIRST_OWNER_NAME, email: settings.FIRST_OWNER_EMAIL },
    webhookAllowPrivateUrls: settings.WEBHOOK_ALLOW_PRIVATE_URLS,
    publishRetryWindowMs: settings.PUBLISH_RETRY_WINDOW_SECONDS * 1000,
    accountReconnectGraceMs: settings.ACCOUNT_RECONNECT_GRACE_SECONDS * 1000,
    accountExpiringNoticeMs: settings.ACCOUNT_EXPIRING_NOTICE_SECONDS * 1000,
    mediaMaxImageBytes: settings.MEDIA_MAX_IMAGE_BYTES,
    mediaMaxVideoBytes: settings.MEDIA_MAX_VIDEO_BYTES,
    mediaMaxDocumentBytes: settings.MEDIA_MAX_DOCUMENT_BYTES,
    mediaUrlTtlSeconds: settings.MEDIA_URL_TTL_SECONDS,
    commentPollIntervalMs: settings.COMMENT_POLL_INTERVAL_SECONDS * 1000,
    auditLogRetentionMs: settings.AUDIT_LOG_RETENTION_DAYS * DAY_MS,
    memberPasswords: settings.MEMBER_PASSWORDS,
    trustProxy: typeof trustProxy === 'string' ? false : trustProxy,
    platformWebhookVerifyToken:
      settings.PLATFORM_WEBHOOK_VERIFY_TOKEN ?? (platforms === 'sandbox' ? SANDBOX_VERIFY_TOKEN : undefined),
    smtpUrl: settings.SMTP_URL,
    mailFrom: settings.MAIL_FROM,
    platforms,
    sandboxUrl: settings.SANDBOX_URL?.replace(/\/+$/, '') ?? (publicUrl ? `${publicUrl}/sandbox` : undefined),
    platformCredentials,
    ...platformSettingValues(settings),
  };
}

/** The S3 store the settings name, if any; a setting that cannot take effect is an error, not ignored. */
function s3Settings(settings: Settings, errors: string[]): S3Settings | undefined {
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = settings;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    errors.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  if (bucket === undefined) {
    const stray: string[] = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_FORCE_PATH_STYLE'] as const).filter(
      (name) => settings[name] !== undefined,
    );
    if (settings.S3_PRESIGNED_URLS) stray.push('S3_PRESIGNED_URLS');
    if (stray.length > 0) errors.push(`${stray.join(', ')} need S3_BUCKET: without it media stay under DATA_DIR`);
    return undefined;
  }
  const endpoint = settings.S3_ENDPOINT?.replace(/\/+$/, '');
  return {
    bucket,
    endpoint,
    region: settings.S3_REGION,
    credentials:
      accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE ?? endpoint !== undefined,
    presignedUrls: settings.S3_PRESIGNED_URLS,
  };
}

/**
 * A setting's value as an error message may show it: never a secret (a key, a client secret, a
 * token, a password), and a URL's password masked, since errors end up in logs.
 */
function shownValue(name: string, value: unknown): string {
  if (/SECRET|TOKEN|PASSWORD/.test(name)) return '(hidden)';
  if (typeof value !== 'string') return JSON.stringify(value);
  return JSON.stringify(value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^@/]*@/i, '$1:***@'));
}
