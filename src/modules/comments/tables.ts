import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, timestampColumn, updatedAt } from '../../db/columns.ts';
import type { Platform } from '../../platforms/index.ts';
import { accountIdColumn } from '../accounts/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { postIdColumn } from '../posts/columns.ts';
import { profileIdColumn } from '../profiles/columns.ts';

/** The inbox's own status of a comment; nothing on the platform changes with it. */
export const REPLY_STATUSES = ['unreplied', 'replied', 'dismissed'] as const;
export type ReplyStatus = (typeof REPLY_STATUSES)[number];

/**
 * Every comment and reply on a connected account's posts, once per account and platform
 * comment however often it arrives (webhook, poll, the account's own reply through us).
 * Keyed by account, and with the account's profile, which a move updates (the comments
 * module's move step), so it follows the account; the account's deletion (with its profile)
 * deletes it.
 */
export const comments = pgTable(
  'comments',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    /** The account's profile, kept with the row so a profile's inbox reads one index in order. */
    profileId: profileIdColumn(),
    accountId: accountIdColumn(),
    postId: postIdColumn(),
    platform: text('platform').$type<Platform>().notNull(),
    platformCommentId: text('platform_comment_id').notNull(),
    /** The platform's id of the post: the post record is found again by it when the account moves. */
    platformPostId: text('platform_post_id').notNull(),
    /** The platform id of the comment this one answers; null for a top-level comment. */
    platformParentId: text('platform_parent_id'),
    /**
     * The id of the comment this one answers, while the service has it; set by triggers
     * (migration 0043) when either is stored, and cleared when the parent is deleted, so a page
     * of the inbox reads it with the row instead of looking for the parent row by row.
     */
    parentId: text('parent_id'),
    authorId: text('author_id'),
    authorUsername: text('author_username'),
    /** Byte for byte as the platform gave it. */
    text: text('text').notNull(),
    commentedAt: timestampColumn('commented_at').notNull(),
    /**
     * Whether commented_at is the platform's own time of the comment. False while only a
     * notice's arrival is known (Instagram's notices carry no time, and reading it failed): the
     * comment is in the inbox, and whether it gets comment.created is decided once a read of
     * the platform confirms its time.
     */
    timeConfirmed: boolean('time_confirmed').notNull().default(true),
    hidden: boolean('hidden').notNull().default(false),
    /** A review's star rating (1 to 5): Google Business Profile's reviews are its comments. Null for any other comment. */
    rating: integer('rating'),
    /** When the platform last changed the comment's words or rating, where it tells (a review's updateTime): a later read's words replace these. */
    editedAt: timestampColumn('edited_at'),
    replyStatus: text('reply_status').$type<ReplyStatus>().notNull().default('unreplied'),
    /** Written by the account itself (a reply through us or on the platform): not in the inbox, no event. */
    byAccount: boolean('by_account').notNull(),
    /**
     * A reply to it was asked through the API (whatever became of it), set by a trigger on
     * comment_replies (migration 0025). Replies are few, so a list reads them for the comments
     * that have any instead of looking for them row by row (half of PostgreSQL's time for a page
     * of the inbox).
     */
    hasReplies: boolean('has_replies').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('comments_account_platform_comment_key').on(t.accountId, t.platformCommentId),
    // The inbox's orders: the owner's (or a profile's accounts'), one account's, one post's.
    index('comments_owner_inbox_idx').on(t.ownerId, t.commentedAt.desc(), t.id.desc()).where(sql`not ${t.byAccount}`),
    index('comments_profile_inbox_idx')
      .on(t.ownerId, t.profileId, t.commentedAt.desc(), t.id.desc())
      .where(sql`not ${t.byAccount}`),
    index('comments_account_inbox_idx')
      .on(t.accountId, t.commentedAt.desc(), t.id.desc())
      .where(sql`not ${t.byAccount}`),
    index('comments_account_status_idx')
      .on(t.accountId, t.replyStatus, t.commentedAt.desc(), t.id.desc())
      .where(sql`not ${t.byAccount}`),
    // Hidden comments are few: the owner's (or a profile's accounts') hidden ones, in the inbox's order,
    // without reading the whole inbox for `hidden=true` (a bench of a million comments read it all).
    index('comments_owner_hidden_idx')
      .on(t.ownerId, t.commentedAt.desc(), t.id.desc())
      .where(sql`${t.hidden} and not ${t.byAccount}`),
    index('comments_post_idx').on(t.postId, t.commentedAt.desc(), t.id.desc()),
    // The replies to a comment, found when it is stored or deleted (replies are few: the index is small).
    index('comments_account_parent_idx')
      .on(t.accountId, t.platformParentId)
      .where(sql`${t.platformParentId} is not null`),
  ],
);

export const REPLY_SEND_STATUSES = ['sending', 'sent', 'failed', 'deleting', 'deleted'] as const;
export type ReplySendStatus = (typeof REPLY_SEND_STATUSES)[number];

/** Replies sent through the API: what was asked, and where it stands on the platform. */
export const commentReplies = pgTable(
  'comment_replies',
  {
    id: text('id').primaryKey(),
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    status: text('status').$type<ReplySendStatus>().notNull(),
    /** Threads: the reply container, published once Threads has processed it. */
    containerId: text('container_id'),
    /** Container status reads so far (the wait grows with them). */
    polls: integer('polls').notNull().default(0),
    platformCommentId: text('platform_comment_id'),
    sentAt: timestampColumn('sent_at'),
    /** When the platform confirmed its deletion (DELETE .../replies/{reply_id}). */
    deletedAt: timestampColumn('deleted_at'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('comment_replies_comment_idx').on(t.commentId, t.id)],
);

/** Per account: when its comments are read next, and when a manual sync last asked. */
export const commentSyncState = pgTable('comment_sync_state', {
  accountId: accountIdColumn().primaryKey(),
  nextPollAt: timestampColumn('next_poll_at').notNull(),
  lastPolledAt: timestampColumn('last_polled_at'),
  lastManualSyncAt: timestampColumn('last_manual_sync_at'),
  /** Why the last poll failed, for operators (null after a good one). */
  lastError: text('last_error'),
});

export type Comment = typeof comments.$inferSelect;
export type CommentReply = typeof commentReplies.$inferSelect;
