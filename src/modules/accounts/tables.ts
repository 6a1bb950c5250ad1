import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, timestampColumn, updatedAt } from '../../db/columns.ts';
import type { Platform } from '../../platforms/index.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { profileIdColumn } from '../profiles/columns.ts';

/** connected: usable; expired: access ended on its own; disconnected: tokens deleted. */
export const ACCOUNT_STATUSES = ['connected', 'expired', 'disconnected'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/**
 * Whether the platform sends the account's comment notices to the service: `pending` (asked
 * at the connection, or to be asked again after a passing failure), `subscribed`, `failed`
 * (the platform refused; comments come by polling until the account is reconnected).
 */
export const NOTICE_SUBSCRIPTION_STATES = ['pending', 'subscribed', 'failed'] as const;
export type NoticeSubscriptionState = (typeof NOTICE_SUBSCRIPTION_STATES)[number];

/**
 * A connected platform account. One platform account is in at most one profile of an
 * owner. Tokens are stored encrypted under SECRET_KEY.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: profileIdColumn(),
    platform: text('platform').$type<Platform>().notNull(),
    platformUserId: text('platform_user_id').notNull(),
    /**
     * Other ids the platform gives the same account, which some of its notices may name
     * (Instagram's app-scoped id, beside the professional account id kept above).
     */
    platformAliases: text('platform_aliases').array().notNull().default(sql`'{}'`),
    username: text('username'),
    displayName: text('display_name'),
    avatarUrl: text('avatar_url'),
    /** One of ACCOUNT_STATUSES. */
    status: text('status').$type<AccountStatus>().notNull(),
    /** Scopes granted on the platform, as the platform names them. */
    scopes: text('scopes').array().notNull(),
    /** Null once the account is disconnected: the service keeps no access it no longer uses. */
    accessTokenSealed: text('access_token_sealed'),
    /** Null: the token does not expire (a Facebook page token). */
    tokenExpiresAt: timestampColumn('token_expires_at'),
    tokenIssuedAt: timestampColumn('token_issued_at').notNull(),
    refreshTokenSealed: text('refresh_token_sealed'),
    refreshExpiresAt: timestampColumn('refresh_expires_at'),
    /** The end of access `account.expiring` was last sent for: one notice per end. */
    expiringNoticeFor: timestampColumn('expiring_notice_for'),
    /** After a failed refresh, the next try waits until then (backing off). */
    refreshRetryAt: timestampColumn('refresh_retry_at'),
    refreshFailures: integer('refresh_failures').notNull().default(0),
    lastRefreshError: text('last_refresh_error'),
    /** Null on a platform without comment notices (TikTok). */
    commentNotices: text('comment_notices').$type<NoticeSubscriptionState>(),
    /** Why the last subscription failed, in the platform's words. */
    commentNoticesError: text('comment_notices_error'),
    /** A `pending` subscription is (re)tried from then on. */
    commentNoticesRetryAt: timestampColumn('comment_notices_retry_at'),
    /** Failed tries since the last connection (the wait before the next grows with them). */
    commentNoticesAttempts: integer('comment_notices_attempts').notNull().default(0),
    /**
     * The client id of the owner's own app (platform-apps) the account was connected through,
     * which alone can refresh and revoke its tokens; null: the deployment's app.
     */
    ownerAppClientId: text('owner_app_client_id'),
    connectedAt: timestampColumn('connected_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('accounts_owner_platform_user_key').on(t.ownerId, t.platform, t.platformUserId),
    // A platform's notice names only the platform user, whoever's account it is.
    index('accounts_platform_user_idx').on(t.platform, t.platformUserId),
    index('accounts_profile_idx').on(t.ownerId, t.profileId, t.id),
    index('accounts_token_expiry_idx').on(t.tokenExpiresAt).where(sql`${t.status} = 'connected'`),
    index('accounts_notice_subscription_idx')
      .on(t.commentNoticesRetryAt)
      .where(sql`${t.commentNotices} = 'pending' and ${t.status} = 'connected'`),
  ],
);

export type Account = typeof accounts.$inferSelect;
