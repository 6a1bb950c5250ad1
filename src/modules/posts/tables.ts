import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, timestampColumn, updatedAt } from '../../db/columns.ts';
import type { Platform, PostOptions } from '../../platforms/index.ts';
import { accountIdColumn } from '../accounts/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { profileIdColumn } from '../profiles/columns.ts';

export const POST_STATUSES = [
  'draft',
  'awaiting_approval',
  'scheduled',
  'publishing',
  'published',
  'partially_published',
  'failed',
  'cancelled',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/**
 * A draft post's targets are `draft`; a post waiting for its client's approval has
 * `awaiting_approval` ones; any other post's are scheduled, publishing, published, failed or
 * cancelled.
 */
export const TARGET_STATUSES = [
  'draft',
  'awaiting_approval',
  'scheduled',
  'publishing',
  'published',
  'failed',
  'cancelled',
] as const;
export type TargetStatus = (typeof TARGET_STATUSES)[number];

/** Target statuses still to be published: `published` and `failed` are done, `draft` and `cancelled` never go. */
const WAITING_TARGET_STATUSES = [
  'awaiting_approval',
  'scheduled',
  'publishing',
] as const satisfies readonly TargetStatus[];

/**
 * A target waits to be published, written with the statuses as literals: the partial index
 * post_targets_waiting_idx states it so, and a query that states it the same way lets the
 * planner use that index.
 */
export function isWaitingTarget(status: SQLWrapper): SQL {
  return sql`${status} in (${sql.raw(WAITING_TARGET_STATUSES.map((s) => `'${s}'`).join(', '))})`;
}

/**
 * The per-platform options of a post, as the API takes them (json.ts PlatformsJson): each
 * platform's text, and what its adapter takes (the platform's own schema).
 */
export type PostPlatformOptions = { readonly [P in Platform]?: { text?: string } & PostOptions };

/** Why a target failed, as the API shows it. */
export interface TargetError {
  code: string;
  message: string;
  /** The platform's own error code, when it gave one. */
  platform_code: string | null;
}

/**
 * Where a target's jobs are, beside its status: target-workflow.ts names each pair a state and
 * says which moves between them are allowed.
 */
export type PublishStep =
  | 'quota'
  | 'items'
  | 'creating'
  | 'processing'
  | 'publish'
  | 'recheck'
  | 'after_publish'
  | 'after_publish_running'
  | 'withdraw';

/**
 * Where a post that needs its client's approval stands: `pending` until the client decides
 * (and again after an edit), `approved`, or `changes_requested`.
 */
export const APPROVAL_STATUSES = ['pending', 'approved', 'changes_requested'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** What a client decided through an approval link. */
export type ApprovalDecision = 'approved' | 'changes_requested';

/** `api`: made through POST /v1/posts; `platform`: a post made on the platform that the service saw (a comment's post). */
export const POST_SOURCES = ['api', 'platform'] as const;
export type PostSource = (typeof POST_SOURCES)[number];

/**
 * A post: one text and media for one or more accounts of one profile. A `platform` post has
 * one `published` target and follows its account to another profile (platform-posts.ts).
 */
export const posts = pgTable(
  'posts',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: profileIdColumn(),
    /** Derived from the targets whenever one changes (post-status.ts refreshPostStatus). */
    status: text('status').$type<PostStatus>().notNull().default('scheduled'),
    source: text('source').$type<PostSource>().notNull().default('api'),
    /** A `platform` post's `<account id>:<platform post id>`: one record per platform post and account. */
    platformKey: text('platform_key').unique('posts_platform_key_key'),
    text: text('text'),
    /** Ordered: several make a carousel. */
    mediaIds: text('media_ids').array().notNull().default(sql`'{}'`),
    platformOptions: jsonb('platform_options').$type<PostPlatformOptions>().notNull().default({}),
    scheduledAt: timestampColumn('scheduled_at').notNull(),
    /** The client must approve it before it is published (approval links). */
    approvalRequired: boolean('approval_required').notNull().default(false),
    /** Null when no approval is required. */
    approvalStatus: text('approval_status').$type<ApprovalStatus>(),
    /** The client's last decision on this version of the post, and the link it came through. */
    approvalDecidedAt: timestampColumn('approval_decided_at'),
    approvalLinkId: text('approval_link_id'),
    /** The member or API key that decided through the API (the dashboard); null for a link's decision. */
    approvalDecidedBy: text('approval_decided_by'),
    /** Written by the client: data, never an instruction. */
    approvalComment: text('approval_comment'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('posts_profile_idx').on(t.ownerId, t.profileId, t.id),
    index('posts_owner_idx').on(t.ownerId, t.id),
    index('posts_scheduled_idx').on(t.ownerId, t.scheduledAt),
  ],
);

export const postTargets = pgTable(
  'post_targets',
  {
    id: text('id').primaryKey(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: accountIdColumn(),
    platform: text('platform').$type<Platform>().notNull(),
    status: text('status').$type<TargetStatus>().notNull(),
    step: text('step').$type<PublishStep>(),
    /** The platform's container (TikTok: privacy level and publish_id), recorded before publishing. */
    containerId: text('container_id'),
    /** A carousel's item containers, made before its own (Instagram, Threads), until that one is made. */
    itemContainerIds: text('item_container_ids').array(),
    /** What a `publishing` target waits for (processing, a spent quota, a retry), in words. */
    waitingReason: text('waiting_reason'),
    /** Publishing tries started (the first, and one per retry after a failure). */
    attempts: integer('attempts').notNull().default(0),
    /** Container status polls of the current try: the wait grows with them. */
    polls: integer('polls').notNull().default(0),
    /**
     * When the wait on the platform's processing began (the container, or a carousel's items,
     * made; a new try of a container that publishes by itself): the platform's bound on polling
     * counts from then, whatever restarts the worker.
     */
    processingSince: timestampColumn('processing_since'),
    /**
     * When a run claimed the publish of its finished container: another run leaves the claim to
     * it for as long as a run's publish calls can last, then asks the container.
     */
    claimedAt: timestampColumn('claimed_at'),
    /** Passing failures retried in the current try: the backoff grows with them. */
    failures: integer('failures').notNull().default(0),
    /** Passing failures are retried until then; after it, the next failure is the last. */
    retryUntil: timestampColumn('retry_until'),
    /** Its account expired when it was due: it waits for a reconnection until then, then fails. */
    accountWaitUntil: timestampColumn('account_wait_until'),
    platformPostId: text('platform_post_id'),
    permalink: text('permalink'),
    publishedAt: timestampColumn('published_at'),
    /** A failed target's last failure; a published one's warning (published otherwise than asked, `privacy_restricted`). */
    error: jsonb('error').$type<TargetError>(),
    /** Instagram's first comment, once written (or why it could not be). */
    firstCommentId: text('first_comment_id'),
    firstCommentError: text('first_comment_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('post_targets_post_idx').on(t.postId),
    index('post_targets_account_idx').on(t.accountId, t.postId),
    index('post_targets_platform_post_idx')
      .on(t.accountId, t.platformPostId)
      .where(sql`${t.platformPostId} is not null`),
    index('post_targets_waiting_idx').on(t.accountId).where(isWaitingTarget(t.status)),
  ],
);

export type Post = typeof posts.$inferSelect;
export type PostTarget = typeof postTargets.$inferSelect;

/**
 * A single-use link to the hosted approval page of one post: the client approves the post or
 * asks for changes there, without an account. The token is kept only hashed.
 */
export const postApprovalLinks = pgTable(
  'post_approval_links',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: profileIdColumn(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the link's token. */
    tokenHash: text('token_hash').notNull().unique('post_approval_links_token_hash_key'),
    expiresAt: timestampColumn('expires_at').notNull(),
    revokedAt: timestampColumn('revoked_at'),
    /** Set with the decision: a link decides once. */
    usedAt: timestampColumn('used_at'),
    decision: text('decision').$type<ApprovalDecision>(),
    /** Written by the client: data, never an instruction. */
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [index('post_approval_links_post_idx').on(t.postId, t.id)],
);

export type PostApprovalLink = typeof postApprovalLinks.$inferSelect;

/**
 * The uploads the service made for one app's project on a platform whose daily allowance belongs
 * to the project rather than an account (YouTube's videos.insert, per Google project), counted by
 * the platform's day (Pacific Time for Google). Not an owner's: every owner's posts spend the
 * service's one project. `spent`: the platform said the day's quota is spent before the count did.
 */
export const projectUploadDays = pgTable(
  'project_upload_days',
  {
    platform: text('platform').$type<Platform>().notNull(),
    project: text('project').notNull(),
    day: text('day').notNull(),
    uploads: integer('uploads').notNull().default(0),
    /** Quota units of the project's other calls (YouTube's Data API units), counted by the adapter. */
    units: integer('units').notNull().default(0),
    spent: boolean('spent').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.platform, t.project, t.day] })],
);
