/**
 * Posts and their targets (one per account): creating one after every check, listing,
 * editing while nothing has started, cancelling, retrying failed targets; what moving an
 * account and deleting a profile or a medium ask of posts. Publishing itself is in
 * publishing.ts.
 */
import { and, asc, desc, eq, gte, inArray, lt, lte, notInArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId, newId } from '../../ids.ts';
import { dueSql, enqueue, jobSql } from '../../jobs/queue.ts';
import { stateValues, transition } from '../../jobs/workflow.ts';
import { type Platform, type PlatformSet, platformInfo } from '../../platforms/index.ts';
import type { AccountMoveCheck } from '../accounts/index.ts';
import type { MediaUseCheck } from '../media/index.ts';
import type { ProfileDeletionStep } from '../profiles/index.ts';
import { profilesBeingDeleted } from '../profiles/index.ts';
import { approvalRequiredFor, pendingApproval, scheduledStatus } from './approval-rules.ts';
import type { PlatformsJson } from './json.ts';
import { isWaitingTarget, type Post, type PostStatus, type PostTarget, posts, postTargets } from './tables.ts';
import { targetStates } from './target-workflow.ts';
import { checkNewPost, checkRetryTargets, type PostDraftInput } from './validation.ts';

/** A post with its targets, in the order of their accounts in the request. */
export interface PostWithTargets {
  post: Post;
  targets: PostTarget[];
}

function postNotFound(id: string): ApiError {
  return new ApiError(404, 'post_not_found', `No post ${JSON.stringify(id)}.`);
}

/** The posts the caller sees: the owner's, only its profile's when scoped, never of a profile being deleted. */
async function visible(db: Queryable, scope: Scope): Promise<SQL | undefined> {
  return and(
    eq(posts.ownerId, scope.ownerId),
    scope.profileId === null ? undefined : eq(posts.profileId, scope.profileId),
    notInArray(posts.profileId, await profilesBeingDeleted(db, scope.ownerId)),
  );
}

/** The job that publishes a target: one per target, so rescheduling replaces it. */
function publishJobKey(targetId: string): string {
  return `publish_target:${targetId}`;
}

export async function queuePublish(tx: Tx, targetId: string, runAt: Date): Promise<void> {
  await enqueue(tx, 'publish_target', { target_id: targetId }, { runAt, jobKey: publishJobKey(targetId) });
}

/** queuePublish as the effect of a target's transition (its `effect`): the moved target's next step, at `runAt`. */
export function queuePublishOfMoved(runAt: Date): SQL {
  const job = jobSql(
    'publish_target',
    { target_id: sql`moved.id` },
    { runAt: dueSql(runAt), jobKey: sql`${publishJobKey('')}::text || moved.id` },
  );
  return sql`select ${job} from moved`;
}

/**
 * A post's status from its targets' (`status` names the targets' status column in the rows it
 * is aggregated over), as docs/posts.md states it: no targets or any `draft`: draft; all
 * cancelled: cancelled; any publishing, or scheduled beside published or failed ones: publishing; any
 * scheduled: scheduled; none failed: published; failed beside published: partially_published;
 * else failed. In SQL, so that storing it is one statement (refreshPostStatus).
 */
export function postStatusSql(status: SQL | PgColumn): SQL<PostStatus> {
  return sql<PostStatus>`case
    when count(*) = 0 or bool_or(${status} = 'draft') then 'draft'
    when bool_or(${status} = 'awaiting_approval') then 'awaiting_approval'
    when bool_and(${status} = 'cancelled') then 'cancelled'
    when bool_or(${status} = 'publishing') then 'publishing'
    when bool_or(${status} = 'scheduled') then
      case when bool_or(${status} in ('published', 'failed')) then 'publishing' else 'scheduled' end
    when not bool_or(${status} = 'failed') then 'published'
    when bool_or(${status} = 'published') then 'partially_published'
    else 'failed' end`;
}

/**
 * Locks a post's row: the first lock of every transaction that changes the post's targets
 * (jobs and API alike), so two of them never wait on each other's targets.
 */
export async function lockPost(tx: Tx, postId: string): Promise<void> {
  await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, postId)).for('update');
}

/**
 * Recomputes and stores a post's status from its targets (call after changing any, under the
 * post's lock: every change of a target's status takes it, so the statuses read here stay so
 * until the commit).
 */
export async function refreshPostStatus(tx: Tx, postId: string): Promise<Post> {
  const [post] = await tx
    .update(posts)
    .set({
      status: sql`(select ${postStatusSql(postTargets.status)} from ${postTargets} where ${postTargets.postId} = ${postId})`,
      updatedAt: now(),
    })
    .where(eq(posts.id, postId))
    .returning();
  if (!post) throw new Error(`post ${postId} vanished while its status was refreshed`);
  return post;
}

async function targetsOf(db: Queryable, postIds: readonly string[]): Promise<Map<string, PostTarget[]>> {
  const byPost = new Map<string, PostTarget[]>(postIds.map((id) => [id, []]));
  if (postIds.length === 0) return byPost;
  const rows = await db
    .select()
    .from(postTargets)
    .where(inArray(postTargets.postId, [...postIds]))
    .orderBy(asc(postTargets.id));
  for (const row of rows) byPost.get(row.postId)?.push(row);
  return byPost;
}

export interface PostDeps {
  db: Db;
  platforms: () => PlatformSet;
}

export interface NewPostInput extends PostDraftInput {
  draft?: boolean | undefined;
  /** Absent: as the profile's `post_approval_required` says. */
  approval?: { required: boolean } | undefined;
}

/**
 * Creates a post after every check (post validation.ts), with one target per account and a
 * publishing job per target due at `scheduled_at`, all in one transaction. A draft is stored
 * with `draft` targets and no job.
 */
export async function createPost(deps: PostDeps, scope: Scope, input: NewPostInput): Promise<PostWithTargets> {
  return await deps.db.transaction(async (tx) => {
    const at = now();
    const checked = await checkNewPost(tx, deps.platforms(), scope, input, at);
    const approval = pendingApproval(
      await approvalRequiredFor(tx, scope.ownerId, checked.profileId, input.approval?.required),
    );
    const status = scheduledStatus(input.draft === true, {
      required: approval.approvalRequired,
      status: approval.approvalStatus,
    });
    const [post] = await tx
      .insert(posts)
      .values({
        id: newId('post'),
        ownerId: scope.ownerId,
        profileId: checked.profileId,
        status,
        ...approval,
        text: input.text ?? null,
        mediaIds: input.media_ids ?? [],
        platformOptions: input.platforms ?? {},
        scheduledAt: checked.scheduledAt,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!post) throw new Error('the post was not inserted');
    const targets = await insertTargets(tx, post, checked.accounts, status);
    return { post, targets };
  });
}

async function insertTargets(
  tx: Tx,
  post: Post,
  accounts: readonly { id: string; platform: Platform }[],
  status: 'draft' | 'awaiting_approval' | 'scheduled',
): Promise<PostTarget[]> {
  const at = now();
  const targets = await tx
    .insert(postTargets)
    .values(
      accounts.map((account) => ({
        id: newId('postTarget'),
        postId: post.id,
        accountId: account.id,
        platform: account.platform,
        status,
        ...stateValues(targetStates, status),
        createdAt: at,
        updatedAt: at,
      })),
    )
    .returning();
  targets.sort((a, b) => (a.id < b.id ? -1 : 1));
  if (status === 'scheduled') {
    for (const target of targets) await queuePublish(tx, target.id, post.scheduledAt);
  }
  return targets;
}

/**
 * Posts and their targets are read in one snapshot: a job committing between the two reads
 * would otherwise show a post status that its targets contradict.
 */
const SNAPSHOT = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

export interface PostListQuery {
  status?: PostStatus | undefined;
  accountId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  limit: number;
  /** The last id of the previous page. */
  before?: string | undefined;
}

/** A page (`limit + 1` posts, newest first) of the posts the caller sees, with their targets. */
export async function listPosts(
  db: Db,
  scope: Scope,
  query: PostListQuery,
): Promise<(PostWithTargets & { id: string })[]> {
  if (query.accountId !== undefined && !looksLikeId('account', query.accountId)) return [];
  return await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(posts)
      .where(
        and(
          await visible(tx, scope),
          query.status === undefined ? undefined : eq(posts.status, query.status),
          query.accountId === undefined
            ? undefined
            : sql`exists (select 1 from ${postTargets} where ${postTargets.postId} = ${posts.id} and ${postTargets.accountId} = ${query.accountId})`,
          query.from === undefined ? undefined : gte(posts.scheduledAt, query.from),
          query.to === undefined ? undefined : lte(posts.scheduledAt, query.to),
          query.before === undefined ? undefined : lt(posts.id, query.before),
        ),
      )
      .orderBy(desc(posts.id))
      .limit(query.limit + 1);
    const targets = await targetsOf(
      tx,
      rows.map((r) => r.id),
    );
    return rows.map((post) => ({ id: post.id, post, targets: targets.get(post.id) ?? [] }));
  }, SNAPSHOT);
}

export async function findVisiblePost(db: Queryable, scope: Scope, id: string, lock: boolean): Promise<Post> {
  if (!looksLikeId('post', id)) throw postNotFound(id);
  const query = db
    .select()
    .from(posts)
    .where(and(await visible(db, scope), eq(posts.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw postNotFound(id);
  return row;
}

export async function getPost(db: Db, scope: Scope, id: string): Promise<PostWithTargets> {
  return await db.transaction(async (tx) => {
    const post = await findVisiblePost(tx, scope, id, false);
    return { post, targets: (await targetsOf(tx, [post.id])).get(post.id) ?? [] };
  }, SNAPSHOT);
}

async function lockedTargets(tx: Tx, postId: string): Promise<PostTarget[]> {
  return await tx
    .select()
    .from(postTargets)
    .where(eq(postTargets.postId, postId))
    .orderBy(asc(postTargets.id))
    .for('update');
}

export interface PostPatch {
  account_ids?: string[] | undefined;
  text?: string | null | undefined;
  media_ids?: string[] | undefined;
  scheduled_at?: string | undefined;
  draft?: boolean | undefined;
  platforms?: PlatformsJson | undefined;
  approval?: { required: boolean } | undefined;
}

/**
 * Changes a post while none of its targets has started (every one `draft` or `scheduled`;
 * else 409 `post_not_editable`). The post as it would be after the change goes through every
 * check a new post does; its targets are made anew when the accounts change, and their jobs
 * move with `scheduled_at`.
 */
export async function updatePost(deps: PostDeps, scope: Scope, id: string, patch: PostPatch): Promise<PostWithTargets> {
  return await deps.db.transaction(async (tx) => {
    const post = await findVisiblePost(tx, scope, id, true);
    const targets = await lockedTargets(tx, post.id);
    if (targets.some((t) => t.status !== 'draft' && t.status !== 'awaiting_approval' && t.status !== 'scheduled')) {
      throw new ApiError(
        409,
        'post_not_editable',
        'The post can be changed only while none of its targets has started publishing; cancel it (DELETE) or create a new post.',
      );
    }
    const at = now();
    const draft = patch.draft ?? post.status === 'draft';
    const accountIds = patch.account_ids ?? targets.map((t) => t.accountId);
    const text = patch.text === undefined ? post.text : patch.text;
    const input: NewPostInput = {
      account_ids: accountIds,
      text: text ?? undefined,
      media_ids: patch.media_ids ?? post.mediaIds,
      // An unchanged time may have passed meanwhile: a draft being scheduled then goes now.
      scheduled_at:
        patch.scheduled_at ?? (post.scheduledAt.getTime() < at.getTime() ? undefined : post.scheduledAt.toISOString()),
      platforms: patch.platforms ?? post.platformOptions,
      draft,
    };
    const checked = await checkNewPost(tx, deps.platforms(), scope, input, at);
    if (checked.profileId !== post.profileId) {
      // An account of a draft may have moved since; the post stays where it was made.
      throw new ApiError(
        400,
        'mixed_profiles',
        `The post is in profile ${post.profileId}, its accounts now in ${checked.profileId}; a post stays in its profile (create a new one there).`,
      );
    }
    // A decision is on what the client saw: a change of what is published, where or when needs
    // a new one, and so does turning approval on or off (it starts over, or goes); scheduling or
    // unscheduling a draft does not undo a decision already made.
    const contentChanged = [patch.account_ids, patch.text, patch.media_ids, patch.scheduled_at, patch.platforms].some(
      (value) => value !== undefined,
    );
    const required = patch.approval?.required ?? post.approvalRequired;
    const approval =
      contentChanged || required !== post.approvalRequired
        ? pendingApproval(required)
        : { approvalRequired: required, approvalStatus: post.approvalStatus };
    const status = scheduledStatus(draft, { required, status: approval.approvalStatus ?? null });
    const [updated] = await tx
      .update(posts)
      .set({
        status,
        ...approval,
        text: input.text ?? null,
        mediaIds: input.media_ids ?? [],
        platformOptions: input.platforms ?? {},
        scheduledAt: checked.scheduledAt,
        updatedAt: at,
      })
      .where(eq(posts.id, post.id))
      .returning();
    if (!updated) throw new Error('the locked post was not updated');
    // Jobs of the old targets find them gone (or not due) and end; new ones are queued.
    await tx.delete(postTargets).where(eq(postTargets.postId, post.id));
    const fresh = await insertTargets(tx, updated, checked.accounts, status);
    return { post: updated, targets: fresh };
  });
}

/**
 * Cancels every target that has not finished: `draft` and `scheduled` ones, and `publishing`
 * ones (a target whose publication the platform is completing at that moment may still end
 * `published`: what is on the platform wins). Published targets stay on the platform. 409
 * `post_not_cancellable` when nothing is left to cancel.
 */
export async function cancelPost(db: Db, scope: Scope, id: string): Promise<PostWithTargets> {
  return await db.transaction(async (tx) => {
    const post = await findVisiblePost(tx, scope, id, true);
    const targets = await lockedTargets(tx, post.id);
    const open = targets.filter(
      (t) =>
        t.status === 'draft' ||
        t.status === 'awaiting_approval' ||
        t.status === 'scheduled' ||
        t.status === 'publishing',
    );
    const cancellable = open.filter((t) => !inPlatformHands(t));
    if (cancellable.length === 0) {
      throw new ApiError(
        409,
        'post_not_cancellable',
        open.length === 0
          ? `Every target of the post has finished (${post.status}); nothing is left to cancel. Published posts stay on the platform.`
          : "What is left of the post is in the platform's hands already (TikTok publishes a video it has received by itself); it cannot be cancelled from here.",
      );
    }
    for (const target of cancellable) {
      await transition(tx, targetStates, target.id, 'cancel', { set: { waitingReason: null } });
    }
    const updated = await refreshPostStatus(tx, post.id);
    return { post: updated, targets: await lockedTargets(tx, post.id) };
  });
}

/**
 * A target the platform publishes by itself from here on: its container (or its creation)
 * exists where creating it is the publication (TikTok). Cancelling it would only hide the
 * outcome; it goes on to `published` or `failed`.
 */
function inPlatformHands(target: PostTarget): boolean {
  return (
    target.status === 'publishing' &&
    platformInfo(target.platform).publishing.containerPublishes &&
    (target.containerId !== null || target.step === 'creating')
  );
}

/**
 * Queues the failed targets again, now: each starts a new try (its attempts go up when it
 * starts). Their accounts must still be connected and in the post's profile. 409
 * `post_not_retryable` when no target failed.
 */
export async function retryPost(deps: PostDeps, scope: Scope, id: string): Promise<PostWithTargets> {
  return await deps.db.transaction(async (tx) => {
    const post = await findVisiblePost(tx, scope, id, true);
    const targets = await lockedTargets(tx, post.id);
    const failed = targets.filter((t) => t.status === 'failed');
    if (failed.length === 0) {
      throw new ApiError(409, 'post_not_retryable', `No target of the post has failed (the post is ${post.status}).`);
    }
    // Locks the accounts (FOR SHARE) so none moves or disconnects while its target is made to wait again.
    await checkRetryTargets(tx, deps.platforms(), scope, post, failed);
    const at = now();
    for (const target of failed) {
      // The container (if any) stays: the new try asks it first, in case it was published after all.
      await transition(tx, targetStates, target.id, 'retry', {
        set: { waitingReason: null, error: null, polls: 0, failures: 0, retryUntil: null },
      });
      await queuePublish(tx, target.id, at);
    }
    const updated = await refreshPostStatus(tx, post.id);
    return { post: updated, targets: await lockedTargets(tx, post.id) };
  });
}

/**
 * True when the account has a post target waiting to be published (scheduled, or being
 * published right now). Call it in the transaction that acts on the answer, after locking
 * the account row FOR UPDATE: creating or retrying a post locks its accounts FOR SHARE,
 * which conflicts with that lock, so no target can start waiting until the transaction
 * commits.
 */
async function accountHasWaitingPosts(tx: Queryable, accountId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: postTargets.id })
    .from(postTargets)
    .where(and(eq(postTargets.accountId, accountId), isWaitingTarget(postTargets.status)))
    .limit(1);
  return row !== undefined;
}

/** An account with posts waiting to be published stays in its profile until they are done. */
export const waitingPostsHoldAccount: AccountMoveCheck = async (tx, account) =>
  (await accountHasWaitingPosts(tx, account.id))
    ? new ApiError(
        409,
        'account_has_scheduled_posts',
        'The account has posts waiting to be published; wait until they are published or delete them, then move it.',
      )
    : null;

/** A medium a post waiting to be published (or a draft) uses stays until that post is done or changed. */
export const waitingPostsHoldMedia: MediaUseCheck = async (tx, media) => {
  const [row] = await tx
    .select({ id: posts.id })
    .from(posts)
    .where(
      and(
        eq(posts.ownerId, media.ownerId),
        sql`${media.id} = any(${posts.mediaIds})`,
        inArray(posts.status, ['draft', 'awaiting_approval', 'scheduled', 'publishing']),
      ),
    )
    .limit(1);
  return row
    ? new ApiError(
        409,
        'media_in_use',
        `Post ${row.id} (a draft or waiting to be published) uses this medium; delete or change that post first.`,
        { post_id: row.id },
      )
    : null;
};

/** The posts module's part in deleting a profile: its posts go, with their targets. */
export const postsProfileDeletion: ProfileDeletionStep = {
  module: 'posts',
  deleteData: async ({ db }, profile) => {
    await db.delete(posts).where(and(eq(posts.ownerId, profile.ownerId), eq(posts.profileId, profile.id)));
  },
};

/** A post's published copy on one account: what its figures are read by. */
export interface PublishedTarget {
  postId: string;
  accountId: string;
  platformPostId: string;
  publishedAt: Date | null;
}

/**
 * Every post published on the account (through the API or seen on the platform), newest
 * first: both kinds carry a `published` target with the platform's id.
 */
export async function publishedTargetsOf(db: Queryable, accountId: string): Promise<PublishedTarget[]> {
  const rows = await db
    .select({
      postId: postTargets.postId,
      accountId: postTargets.accountId,
      platformPostId: postTargets.platformPostId,
      publishedAt: postTargets.publishedAt,
    })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.accountId, accountId),
        eq(postTargets.status, 'published'),
        sql`${postTargets.platformPostId} is not null`,
      ),
    )
    .orderBy(sql`${postTargets.publishedAt} desc nulls last`, desc(postTargets.postId));
  return rows.map((r) => ({ ...r, platformPostId: r.platformPostId as string }));
}

/** The ids of a profile's posts: for a module's profile deletion step. */
export async function postIdsOfProfile(db: Queryable, profile: { ownerId: string; id: string }): Promise<string[]> {
  const rows = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.ownerId, profile.ownerId), eq(posts.profileId, profile.id)));
  return rows.map((r) => r.id);
}
