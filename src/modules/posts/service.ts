/**
 * What the /v1/posts endpoints do with posts and their targets (one per account): creating one
 * after every check, listing, editing while nothing has started, cancelling, retrying failed
 * targets. Publishing itself is in publishing/, a client's approval in approval/.
 */
import { and, asc, desc, eq, gte, inArray, lt, lte, notInArray, type SQL, sql } from 'drizzle-orm';
import type { BaseLogger } from 'pino';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId, newId } from '../../ids.ts';
import { stateValues, transition } from '../../jobs/workflow.ts';
import { type Platform, type PlatformSet, platformInfo } from '../../platforms/index.ts';
import { profilesBeingDeleted } from '../profiles/index.ts';
import { approvalRequiredFor, pendingApproval, scheduledStatus } from './approval/rules.ts';
import type { PlatformsJson } from './json.ts';
import { ListedValueMemo } from './listed-values.ts';
import { refreshPostStatus } from './post-status.ts';
import { startOf, waitsForItsTime } from './publishing/ahead.ts';
import { queuePublish, queuePublishOfMoved } from './publishing/publish-jobs.ts';
import { type Post, type PostStatus, type PostTarget, posts, postTargets } from './tables.ts';
import { targetStates } from './target-workflow.ts';
import { checkNewPost, checkRetryTargets, type PostDraftInput, type UncheckedValue } from './validation.ts';

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
  /** The accounts' tokens are sealed under it: a post's listed options are checked as its accounts. */
  secretKey: Buffer;
}

/** What creating or changing a post needs in a request: its log, which tells what was stored unchecked. */
export interface PostWriteDeps extends PostDeps {
  log: Pick<BaseLogger, 'warn'>;
}

/**
 * Tells the operator of each value of a listed option a stored post names unchecked (its
 * account's values could not be read): its publication fails as any would on a wrong value,
 * and a refusal that lasts (a platform down, an account rate limited) is one to look into.
 */
function logUnchecked(log: PostWriteDeps['log'], postId: string, unchecked: readonly UncheckedValue[]): void {
  for (const { accountId, platform, option, value, why } of unchecked) {
    const at = { post_id: postId, account_id: accountId, platform, option, value };
    if (why === 'changed') {
      log.warn(
        { ...at, reason: 'changed' },
        "a post's listed option value was stored unchecked: the post changed while the account's values were read",
      );
    } else if ('refusal' in why) {
      log.warn(
        { ...at, reason: 'refused', kind: why.refusal.kind, err: why.refusal.message },
        "a post's listed option value was stored unchecked: the platform refused to list the account's values",
      );
    } else {
      log.warn(
        { ...at, reason: 'incomplete', read: why.incomplete },
        "a post's listed option value was stored unchecked: it is not among the account's values read, which the platform had more of",
      );
    }
  }
}

export interface NewPostInput extends PostDraftInput {
  draft?: boolean | undefined;
  /** Absent: as the profile's `post_approval_required` says. */
  approval?: { required: boolean } | undefined;
}

/**
 * Creates a post after every check (post validation.ts), with one target per account and a
 * publishing job per target due at `scheduled_at`, all in one transaction. A draft is stored
 * with `draft` targets and no job. The accounts' values of the listed options the post names
 * are read from their platforms first, outside the transaction (listed-values.ts).
 */
export async function createPost(deps: PostWriteDeps, scope: Scope, input: NewPostInput): Promise<PostWithTargets> {
  const listed = new ListedValueMemo(deps, scope);
  await listed.read(input.account_ids, input.platforms ?? {});
  const { created, unchecked } = await listed.untilRead(() => insertPost(deps, scope, input, listed));
  logUnchecked(deps.log, created.post.id, unchecked);
  return created;
}

async function insertPost(
  deps: PostDeps,
  scope: Scope,
  input: NewPostInput,
  listed: ListedValueMemo,
): Promise<{ created: PostWithTargets; unchecked: UncheckedValue[] }> {
  return await deps.db.transaction(async (tx) => {
    const at = now();
    const checked = await checkNewPost(tx, deps.platforms(), scope, input, at, listed);
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
    return { created: { post, targets }, unchecked: checked.unchecked };
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
    for (const target of targets) await queuePublish(tx, target.id, startOf(post, target.platform));
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
 * check a new post does, the listed options' values read first as for a new post; its targets
 * are made anew when the accounts change, and their jobs move with `scheduled_at`.
 */
export async function updatePost(
  deps: PostWriteDeps,
  scope: Scope,
  id: string,
  patch: PostPatch,
): Promise<PostWithTargets> {
  const listed = new ListedValueMemo(deps, scope);
  // Read as the post is now, before its lock: the checks find what changed meanwhile unread.
  const post = await findVisiblePost(deps.db, scope, id, false);
  const targets = (await targetsOf(deps.db, [post.id])).get(post.id) ?? [];
  if (!targets.some(hasStarted)) {
    const edited = editedTargets(post, targets, patch);
    await listed.read(edited.accountIds, edited.platforms);
  }
  const { updated, unchecked } = await listed.untilRead(() => changePost(deps, scope, id, patch, listed));
  logUnchecked(deps.log, updated.post.id, unchecked);
  return updated;
}

function hasStarted(target: PostTarget): boolean {
  return target.status !== 'draft' && target.status !== 'awaiting_approval' && target.status !== 'scheduled';
}

/** The accounts and options a post has after `patch`. */
function editedTargets(
  post: Post,
  targets: readonly PostTarget[],
  patch: PostPatch,
): { accountIds: string[]; platforms: PlatformsJson } {
  return {
    accountIds: patch.account_ids ?? targets.map((t) => t.accountId),
    platforms: patch.platforms ?? post.platformOptions,
  };
}

async function changePost(
  deps: PostDeps,
  scope: Scope,
  id: string,
  patch: PostPatch,
  listed: ListedValueMemo,
): Promise<{ updated: PostWithTargets; unchecked: UncheckedValue[] }> {
  return await deps.db.transaction(async (tx) => {
    const post = await findVisiblePost(tx, scope, id, true);
    const targets = await lockedTargets(tx, post.id);
    const at = now();
    const started = targets.filter(hasStarted);
    if (started.length > 0) {
      const onlyTime = Object.entries(patch).every(([key, value]) => key === 'scheduled_at' || value === undefined);
      const ahead = started.every((t) => t.status === 'publishing' && waitsForItsTime(post, t.platform, at));
      if (onlyTime && patch.scheduled_at !== undefined && ahead && !post.approvalRequired) {
        return { updated: await moveUploadedAhead(tx, post, targets, patch.scheduled_at, at), unchecked: [] };
      }
      throw new ApiError(
        409,
        'post_not_editable',
        'The post can be changed only while none of its targets has started publishing (a YouTube video uploaded ahead of its time can still be moved: a PATCH of `scheduled_at` alone); cancel it (DELETE) or create a new post.',
      );
    }
    const draft = patch.draft ?? post.status === 'draft';
    const edited = editedTargets(post, targets, patch);
    const text = patch.text === undefined ? post.text : patch.text;
    const input: NewPostInput = {
      account_ids: edited.accountIds,
      text: text ?? undefined,
      media_ids: patch.media_ids ?? post.mediaIds,
      // An unchanged time may have passed meanwhile: a draft being scheduled then goes now.
      scheduled_at:
        patch.scheduled_at ?? (post.scheduledAt.getTime() < at.getTime() ? undefined : post.scheduledAt.toISOString()),
      platforms: edited.platforms,
      draft,
    };
    const checked = await checkNewPost(tx, deps.platforms(), scope, input, at, listed);
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
    return { updated: { post: updated, targets: fresh }, unchecked: checked.unchecked };
  });
}

/**
 * An uploaded post whose time is nearer than this is not moved: the platform may publish it at
 * that time before the move reaches it.
 */
const MOVE_BEFORE_MS = 5 * 60_000;

/**
 * Moves a post some of whose targets are uploaded ahead, waiting on their platform for the
 * post's time (YouTube's publishAt): the post's time changes, the targets stay (their uploads
 * are on the platform). A target waiting on the platform for the old time has its read queued
 * now, which gives the platform the new time before anything else (videos.update); a crash
 * repeats only that read. Any other started target's job may be running: it is left alone,
 * its next read taking the new time (a second job of one target would run beside it). The new
 * time must leave the platform's minimum ahead, as an upload made ahead does.
 */
async function moveUploadedAhead(
  tx: Tx,
  post: Post,
  targets: readonly PostTarget[],
  scheduledAt: string,
  at: Date,
): Promise<PostWithTargets> {
  if (post.scheduledAt.getTime() - at.getTime() < MOVE_BEFORE_MS) {
    throw new ApiError(
      409,
      'post_not_editable',
      `The post's video is uploaded to be published at ${post.scheduledAt.toISOString()}, less than ${MOVE_BEFORE_MS / 60_000} minutes away: the platform may publish it then before a move reaches it. Cancel the post (DELETE) instead.`,
    );
  }
  const time = new Date(scheduledAt);
  const least = Math.max(...targets.map((t) => platformInfo(t.platform).publishing.publishAhead?.minimumSeconds ?? 0));
  if (Number.isNaN(time.getTime()) || time.getTime() < at.getTime() + least * 1000) {
    throw new ApiError(400, 'validation_failed', "The post breaks a platform's rules. See details.", [
      {
        code: 'validation_failed',
        field: 'scheduled_at',
        message: `A video already uploaded to be published at the post's time can be moved only to a time at least ${least / 60} minutes ahead; cancel the post (DELETE) to publish it otherwise.`,
      },
    ]);
  }
  const [moved] = await tx
    .update(posts)
    .set({ scheduledAt: time, updatedAt: at })
    .where(eq(posts.id, post.id))
    .returning();
  if (!moved) throw new Error('the locked post was not updated');
  for (const target of targets) {
    if (target.status === 'scheduled') {
      const start = startOf(moved, target.platform);
      await queuePublish(tx, target.id, start.getTime() > at.getTime() ? start : at);
    } else if (target.processingSince !== null && target.processingSince.getTime() > at.getTime()) {
      // Waiting for the platform's publication (its processing counted from the old time).
      await queuePublish(tx, target.id, at);
    }
  }
  return { post: moved, targets: await lockedTargets(tx, post.id) };
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
    const at = now();
    // Uploaded ahead, its time still to come: the upload is removed from the platform (a job).
    const withdrawable = open.filter((t) => inPlatformHands(t) && waitsForItsTime(post, t.platform, at));
    const cancellable = open.filter((t) => !inPlatformHands(t));
    if (cancellable.length === 0 && withdrawable.length === 0) {
      throw new ApiError(
        409,
        'post_not_cancellable',
        open.length === 0
          ? `Every target of the post has finished (${post.status}); nothing is left to cancel. Published posts stay on the platform.`
          : "What is left of the post is in the platform's hands already (TikTok publishes a video it has received by itself); it cannot be cancelled from here.",
      );
    }
    for (const target of cancellable) {
      await transition(tx, targetStates, target.id, 'cancel', { set: { waitingReason: null, claimedAt: null } });
    }
    for (const target of withdrawable) {
      await transition(tx, targetStates, target.id, 'withdraw', {
        set: {
          polls: 0,
          failures: 0,
          claimedAt: null,
          waitingReason: 'Removing the upload made ahead from the platform.',
        },
        effect: queuePublishOfMoved(at),
      });
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
        set: { waitingReason: null, error: null, polls: 0, failures: 0, retryUntil: null, claimedAt: null },
      });
      await queuePublish(tx, target.id, at);
    }
    const updated = await refreshPostStatus(tx, post.id);
    return { post: updated, targets: await lockedTargets(tx, post.id) };
  });
}
