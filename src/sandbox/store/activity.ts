/** What the service did on a platform (published, replied, hid, deleted its comment, revoked), as the control API lists it. */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { preparedPerDb } from '../../db/prepared.ts';
import type { Store } from '../platform.ts';
import { type SandboxActivity, type SandboxPost, sandboxActivity } from '../schema.ts';

export async function recordActivity(
  store: Store,
  values: {
    accountId: string;
    action: 'publish' | 'reply' | 'comment' | 'hide' | 'unhide' | 'revoke' | 'delete_comment' | 'update' | 'delete';
    targetId: string;
    detail: Record<string, unknown>;
  },
): Promise<void> {
  await store.db.insert(sandboxActivity).values({ ...values, at: store.now() });
}

/** The account hid (or unhid) a comment. */
export async function recordHiding(store: Store, accountId: string, commentId: string, hidden: boolean): Promise<void> {
  await recordActivity(store, { accountId, action: hidden ? 'hide' : 'unhide', targetId: commentId, detail: {} });
}

/** The account deleted a comment (its own reply, or one on its post where the platform allows that). */
export async function recordCommentDeletion(store: Store, accountId: string, commentId: string): Promise<void> {
  await recordActivity(store, { accountId, action: 'delete_comment', targetId: commentId, detail: {} });
}

/** What a platform received for a post it published, as the activity lists it. */
export interface Publication {
  text: string;
  mediaUrls: string[];
  /** The platform's own name for the kind of post (IMAGE, REELS, STORIES, CAROUSEL, VIDEO, TEXT, LINK...). */
  type: string;
  /** The options the platform took for it, in its own names (reply_control, disable_duet, link...). */
  options: Record<string, unknown>;
}

/**
 * Records a publication (`publish`) in the one shape every platform shares: `text`,
 * `media_urls`, `type`, `options`, `permalink`, beside the platform's raw request fields.
 */
export async function recordPublication(
  store: Store,
  post: SandboxPost,
  publication: Publication,
  raw: Record<string, unknown> = {},
): Promise<void> {
  await recordActivity(store, {
    accountId: post.accountId,
    action: 'publish',
    targetId: post.id,
    detail: {
      ...raw,
      text: publication.text,
      media_urls: publication.mediaUrls,
      type: publication.type,
      options: publication.options,
      permalink: post.permalink,
    },
  });
}

/** How many times the account did `action` in the last `windowMs` (publishing quotas count publications). */
export async function countActivity(
  store: Store,
  accountId: string,
  action: string,
  windowMs: number,
): Promise<number> {
  const since = new Date(store.now().getTime() - windowMs);
  const rows = await activitySince(store.db).execute({ accountId, action, since: since.toISOString() });
  return rows[0]?.n ?? 0;
}

/** Prepared: every quota read and publication counts what came before it. */
const activitySince = preparedPerDb((db) =>
  db
    .select({ n: sql<number>`count(*)::int` })
    .from(sandboxActivity)
    .where(
      and(
        eq(sandboxActivity.accountId, sql.placeholder('accountId')),
        eq(sandboxActivity.action, sql.placeholder('action')),
        gt(sandboxActivity.at, sql`${sql.placeholder('since')}::timestamptz`),
      ),
    )
    .prepare('sandbox_activity_since'),
);

export async function listActivity(store: Store, accountIds: string[]): Promise<SandboxActivity[]> {
  if (accountIds.length === 0) return [];
  return store.db
    .select()
    .from(sandboxActivity)
    .where(inArray(sandboxActivity.accountId, accountIds))
    .orderBy(asc(sandboxActivity.id));
}
