/**
 * The sandbox platforms' state, in a schema of its own (`sandbox`) so a demo survives a
 * restart and nothing in it is mistaken for the service's data. Ids look like the
 * platforms' own (long digit strings).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const sandbox = pgSchema('sandbox');

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A platform user, or (kind `page`) a Facebook page a user manages. */
export const sandboxAccounts = sandbox.table(
  'accounts',
  {
    id: text('id').primaryKey(),
    platform: text('platform').notNull(),
    kind: text('kind').notNull().default('user'),
    /** For a page: the user who manages it. */
    parentId: text('parent_id'),
    username: text('username').notNull(),
    name: text('name').notNull(),
    avatarUrl: text('avatar_url').notNull(),
    followersCount: integer('followers_count').notNull(),
    /** For a Facebook page: its linked Instagram professional account. */
    instagramBusinessAccountId: text('instagram_business_account_id'),
    /** Every call with this account's tokens is refused as over the rate limit until then. */
    throttledUntil: at('throttled_until'),
    /** A private account (TikTok: what its creator_info offers, and whether an unaudited app may post to it). */
    private: boolean('private').notNull().default(false),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('sandbox_accounts_platform_username_key').on(t.platform, t.username)],
);
export type SandboxAccount = typeof sandboxAccounts.$inferSelect;

export const sandboxCodes = sandbox.table('codes', {
  code: text('code').primaryKey(),
  platform: text('platform').notNull(),
  clientId: text('client_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  accountId: text('account_id').notNull(),
  scopes: text('scopes').array().notNull(),
  /** Facebook: the pages the user granted. */
  pageIds: text('page_ids').array().notNull().default(sql`'{}'`),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
});
export type SandboxCode = typeof sandboxCodes.$inferSelect;

export const sandboxTokens = sandbox.table(
  'tokens',
  {
    token: text('token').primaryKey(),
    platform: text('platform').notNull(),
    accountId: text('account_id').notNull(),
    /** `short`, `long`, `refresh` (TikTok's refresh token) or `page`. */
    kind: text('kind').notNull(),
    clientId: text('client_id').notNull(),
    scopes: text('scopes').array().notNull(),
    pageIds: text('page_ids').array().notNull().default(sql`'{}'`),
    issuedAt: at('issued_at').notNull(),
    /** Null: does not expire (Facebook page tokens). */
    expiresAt: at('expires_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('sandbox_tokens_account_idx').on(t.accountId)],
);
export type SandboxToken = typeof sandboxTokens.$inferSelect;

export const sandboxPosts = sandbox.table(
  'posts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    caption: text('caption').notNull().default(''),
    mediaType: text('media_type').notNull(),
    mediaUrl: text('media_url'),
    permalink: text('permalink').notNull(),
    /** Published through the API (as opposed to made up for a new user). */
    viaApi: boolean('via_api').notNull().default(false),
    /** Threads: the post or reply this one answers. */
    replyToId: text('reply_to_id'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('sandbox_posts_account_idx').on(t.accountId, t.createdAt)],
);
export type SandboxPost = typeof sandboxPosts.$inferSelect;

/** A publishing container (Instagram, Threads) or a TikTok publish_id. */
export const sandboxContainers = sandbox.table('containers', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull(),
  request: jsonb('request').$type<Record<string, unknown>>().notNull(),
  /** FAILED with this message instead of finishing (set by a publish fault). */
  failure: text('failure'),
  publishedPostId: text('published_post_id'),
  createdAt: at('created_at').notNull(),
});
export type SandboxContainer = typeof sandboxContainers.$inferSelect;

export const sandboxComments = sandbox.table(
  'comments',
  {
    id: text('id').primaryKey(),
    postId: text('post_id').notNull(),
    parentId: text('parent_id'),
    authorId: text('author_id').notNull(),
    authorUsername: text('author_username').notNull(),
    text: text('text').notNull(),
    hidden: boolean('hidden').notNull().default(false),
    /** A review's star rating (Google Business Profile's reviews are comments here); null for others. */
    rating: integer('rating'),
    createdAt: at('created_at').notNull(),
    /** When its words or stars were last changed (`PATCH /_control/comments/{id}`); null: never. */
    updatedAt: at('updated_at'),
  },
  (t) => [index('sandbox_comments_post_idx').on(t.postId, t.createdAt)],
);
export type SandboxComment = typeof sandboxComments.$inferSelect;

/** A daily figure set through the control API; `value` null means "no data". Unset days are made up. */
export const sandboxInsights = sandbox.table(
  'insights',
  {
    accountId: text('account_id').notNull(),
    /** Empty for account metrics. */
    postId: text('post_id').notNull().default(''),
    metric: text('metric').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    value: bigint('value', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.postId, t.metric, t.day] })],
);

/** An error to answer instead of the next call (or the next publish) with this account's tokens. */
export const sandboxFaults = sandbox.table('faults', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  accountId: text('account_id').notNull(),
  /** `call`, `publish` or `refresh`. */
  trigger: text('trigger').notNull(),
  /** A preset (`token_expired`, `rate_limited`, ...) or `custom` with `status` and `body`. */
  error: text('error').notNull(),
  status: integer('status'),
  body: jsonb('body'),
  /** Null: answers the next such call once; else every such call until then (a while of failures). */
  until: at('until'),
  createdAt: at('created_at').notNull(),
});
export type SandboxFault = typeof sandboxFaults.$inferSelect;

/** What the service did on the platform: published, replied, hid, unhid. */
export const sandboxActivity = sandbox.table(
  'activity',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: text('account_id').notNull(),
    action: text('action').notNull(),
    targetId: text('target_id').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    at: at('at').notNull(),
  },
  (t) => [index('sandbox_activity_account_idx').on(t.accountId, t.id)],
);
export type SandboxActivity = typeof sandboxActivity.$inferSelect;

/** Sandbox-wide switches set through the control API (e.g. which documented answer shape to use). */
export const sandboxSettings = sandbox.table('settings', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
});

/** The YouTube Data API units a Google project (the app's client id) spent on a Pacific Time day. */
export const sandboxGoogleQuotaDays = sandbox.table(
  'google_quota_days',
  {
    clientId: text('client_id').notNull(),
    day: text('day').notNull(),
    units: integer('units').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.day] })],
);

/** A platform's webhook subscription, as an app sets it in Meta's App Dashboard (one callback per platform). */
export const sandboxWebhooks = sandbox.table('webhooks', {
  platform: text('platform').primaryKey(),
  callbackUrl: text('callback_url').notNull(),
  verifyToken: text('verify_token').notNull(),
  /** The app secret notices are signed with (X-Hub-Signature-256). */
  appSecret: text('app_secret').notNull(),
  /** Threads names its app and subscription in each notice. */
  appId: text('app_id').notNull(),
  subscriptionId: text('subscription_id').notNull(),
  createdAt: at('created_at').notNull(),
});
export type SandboxWebhook = typeof sandboxWebhooks.$inferSelect;

/**
 * The webhook fields an account (an Instagram professional account, a Facebook page) asked the
 * app's notices for (`POST /{id}/subscribed_apps`): Meta sends an account's notices only once
 * it did, whatever the app subscribed to in its dashboard.
 */
export const sandboxAppSubscriptions = sandbox.table('app_subscriptions', {
  accountId: text('account_id').primaryKey(),
  fields: text('fields').array().notNull(),
  subscribedAt: at('subscribed_at').notNull(),
});

/** Each notice sent (or being retried): the exact body and signature, for tests that replay one. */
export const sandboxWebhookDeliveries = sandbox.table(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    platform: text('platform').notNull(),
    callbackUrl: text('callback_url').notNull(),
    body: text('body').notNull(),
    signature: text('signature').notNull(),
    /** A Pub/Sub push's `Authorization` (`Bearer <OIDC token>`), sent instead of a signature; null for Meta's notices. */
    authorization: text('authorization'),
    /** The last attempt's HTTP status; null before any answer (or after a network failure). */
    status: integer('status'),
    attempts: integer('attempts').notNull().default(0),
    sentAt: at('sent_at').notNull(),
  },
  (t) => [index('sandbox_webhook_deliveries_platform_idx').on(t.platform, t.id)],
);
export type SandboxWebhookDelivery = typeof sandboxWebhookDeliveries.$inferSelect;

/**
 * A Business Profile account's notification setting (the Notifications API's
 * `accounts/{accountId}/notificationSetting`): the Pub/Sub topic Google publishes its
 * locations' notifications to, and which kinds.
 */
export const sandboxNotificationSettings = sandbox.table('notification_settings', {
  account: text('account').primaryKey(),
  pubsubTopic: text('pubsub_topic').notNull(),
  notificationTypes: text('notification_types').array().notNull(),
  updatedAt: at('updated_at').notNull(),
});

/**
 * A Cloud Pub/Sub push subscription (`PUT /_control/pubsub/subscriptions`): messages published
 * to its topic are pushed to its endpoint with an OIDC token for its service account and audience.
 */
export const sandboxPushSubscriptions = sandbox.table('push_subscriptions', {
  name: text('name').primaryKey(),
  topic: text('topic').notNull(),
  pushEndpoint: text('push_endpoint').notNull(),
  serviceAccountEmail: text('service_account_email').notNull(),
  audience: text('audience').notNull(),
  createdAt: at('created_at').notNull(),
});
export type SandboxPushSubscription = typeof sandboxPushSubscriptions.$inferSelect;
