import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull();
/** The owner a row belongs to; deleting the owner deletes it. (`owners` is declared below, read lazily.) */
const ownerId = () =>
  text('owner_id')
    .notNull()
    .references(() => owners.id, { onDelete: 'cascade' });

export const owners = pgTable('owners', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  /** Connected accounts the owner's plan allows; null means unlimited. */
  accountLimit: integer('account_limit'),
  createdAt: createdAt(),
});

export const profiles = pgTable(
  'profiles',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    name: text('name').notNull(),
    externalId: text('external_id'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set when deletion is requested: from then on the profile is gone for every caller. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('profiles_owner_external_id_key')
      .on(t.ownerId, t.externalId)
      .where(sql`${t.deletedAt} is null and ${t.externalId} is not null`),
    uniqueIndex('profiles_owner_default_key').on(t.ownerId).where(sql`${t.isDefault}`),
    index('profiles_owner_id_idx').on(t.ownerId, t.id),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    /** Null for an owner key. */
    profileId: text('profile_id').references(() => profiles.id, { onDelete: 'cascade' }),
    name: text('name'),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** The first characters of the key, shown in lists so a user can tell keys apart. */
    keyStart: text('key_start').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('api_keys_profile_id_idx').on(t.ownerId, t.profileId, t.id)],
);

/**
 * The outbox: every event the service reports, written by `emit` in the transaction of
 * the change it reports. Webhook delivery reads from here.
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    ownerId: ownerId(),
    profileId: text('profile_id'),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    /** The envelope as delivered, written once: every attempt sends exactly these bytes. */
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('events_owner_created_idx').on(t.ownerId, t.createdAt)],
);

/**
 * Responses to POST requests sent with an `Idempotency-Key`, kept 24 hours so a retry
 * gets the first answer instead of doing the work twice.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    apiKeyId: text('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of method, path, profile header and body: the same key with another request is an error. */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still being handled. */
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** Where an owner wants events delivered (see modules/webhooks). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    /** Bound: only this profile's events. Null: every profile's. */
    profileId: text('profile_id').references(() => profiles.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    active: boolean('active').notNull().default(true),
    /** The signing secret, encrypted under SECRET_KEY. */
    secretSealed: text('secret_sealed').notNull(),
    /** After a rotation, the old secret keeps signing too until `previousSecretExpiresAt`. */
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true, mode: 'date' }),
    /** Failed attempts in a row, across deliveries; 50 make the endpoint inactive. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** Why the service made the endpoint inactive (null when the owner did, or when active). */
    disabledReason: text('disabled_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_owner_idx').on(t.ownerId, t.id)],
);

/** One sending of one event to one endpoint, with its retries (see modules/webhooks). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    ownerId: ownerId(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** pending (an attempt is due at next_attempt_at), succeeded, failed (8 attempts), cancelled. */
    status: text('status').notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhook_deliveries_history_idx').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, mode: 'date' }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    /** Why there was no usable answer (timeout, refused address, ...); null when one came. */
    error: text('error'),
    /** At most 20 KB of the answer. */
    responseBody: text('response_body'),
    succeeded: boolean('succeeded').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);

/**
 * Worker processes and the graphile-worker ids they run, so the jobs of one that died
 * (SIGKILL, a lost machine) can be unlocked at once rather than after graphile-worker's
 * 4 hours (src/jobs/liveness.ts).
 */
export const workerProcesses = pgTable('worker_processes', {
  id: text('id').primaryKey(),
  workerIds: text('worker_ids').array().notNull().default(sql`'{}'::text[]`),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * A connected platform account (see modules/accounts). One platform account is in at most
 * one profile of an owner. Tokens are stored encrypted under SECRET_KEY.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    platformUserId: text('platform_user_id').notNull(),
    username: text('username'),
    displayName: text('display_name'),
    avatarUrl: text('avatar_url'),
    /** connected, expired (must be reconnected), disconnected. */
    status: text('status').notNull(),
    /** Scopes granted on the platform, as the platform names them. */
    scopes: text('scopes').array().notNull(),
    /** Null once the account is disconnected: the service keeps no access it no longer uses. */
    accessTokenSealed: text('access_token_sealed'),
    /** Null: the token does not expire (a Facebook page token). */
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true, mode: 'date' }),
    tokenIssuedAt: timestamp('token_issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    refreshTokenSealed: text('refresh_token_sealed'),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true, mode: 'date' }),
    /** After a failed refresh, the next try waits until then (backing off). */
    refreshRetryAt: timestamp('refresh_retry_at', { withTimezone: true, mode: 'date' }),
    refreshFailures: integer('refresh_failures').notNull().default(0),
    lastRefreshError: text('last_refresh_error'),
    connectedAt: timestamp('connected_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('accounts_owner_platform_user_key').on(t.ownerId, t.platform, t.platformUserId),
    index('accounts_profile_idx').on(t.ownerId, t.profileId, t.id),
    index('accounts_token_expiry_idx').on(t.tokenExpiresAt).where(sql`${t.status} = 'connected'`),
  ],
);

/** Origins an owner's connect links may send clients back to (see modules/connect). */
export const connectRedirectOrigins = pgTable(
  'connect_redirect_origins',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    /** Normalised as the URL standard's origin: `https://app.example.com`, `http://localhost:3000`. */
    origin: text('origin').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('connect_redirect_origins_owner_origin_key').on(t.ownerId, t.origin)],
);

/** How an owner's connect page looks; a missing row means the defaults. */
export const connectSettings = pgTable('connect_settings', {
  ownerId: text('owner_id')
    .primaryKey()
    .references(() => owners.id, { onDelete: 'cascade' }),
  /** Null: the owner's name. */
  brandName: text('brand_name'),
  updatedAt: updatedAt(),
});

/** A single-use link to the hosted connect page. Only the token's hash is stored. */
export const connectLinks = pgTable(
  'connect_links',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token in the link's URL, hex. */
    tokenHash: text('token_hash').notNull().unique(),
    redirectUrl: text('redirect_url').notNull(),
    /** The owner's `state`, returned unchanged; null when none was given. */
    state: text('state'),
    /** The platforms the page offers; null: every available one. */
    platforms: text('platforms').array(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Set by the one completion that succeeded. */
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    accountIds: text('account_ids').array(),
  },
  (t) => [index('connect_links_expiry_idx').on(t.expiresAt)],
);

/**
 * One trip of a client from the connect page to a platform and back. The OAuth `state`
 * sent to the platform is a random value whose hash is stored here; the browser that
 * started the trip holds it in a cookie, so a callback from another browser is refused.
 */
export const connectAttempts = pgTable(
  'connect_attempts',
  {
    id: text('id').primaryKey(),
    linkId: text('link_id')
      .notNull()
      .references(() => connectLinks.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    /** SHA-256 of the OAuth state, hex. */
    stateHash: text('state_hash').notNull().unique(),
    /**
     * For a login that grants pages: the pages (with their tokens) and the granted scopes,
     * as JSON encrypted under SECRET_KEY, kept while the client chooses.
     */
    grantSealed: text('grant_sealed'),
    createdAt: createdAt(),
  },
  (t) => [index('connect_attempts_link_idx').on(t.linkId)],
);

/**
 * Posts and their targets (one per account). Only what moving an account needs to know
 * exists so far: whether the account has targets waiting to be published. The posts
 * module adds the rest.
 */
export const posts = pgTable(
  'posts',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('posts_profile_idx').on(t.ownerId, t.profileId, t.id)],
);

export const postTargets = pgTable(
  'post_targets',
  {
    id: text('id').primaryKey(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** scheduled and publishing are waiting; published and failed are done. */
    status: text('status').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('post_targets_waiting_idx').on(t.accountId).where(sql`${t.status} in ('scheduled', 'publishing')`)],
);
