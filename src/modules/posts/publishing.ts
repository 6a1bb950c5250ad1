/**
 * Publishing one target: a chain of `publish_target` jobs, each doing one short step and
 * queueing the next at the time it is due, so no worker slot waits on a platform.
 *
 *   scheduled  --(due)-->  publishing/quota: read the quota; spent -> wait and read again;
 *                          else create the container and record its id (before publishing)
 *              -->  publishing/processing: poll the container (a job per poll, backing off);
 *                          finished -> publish -> published (+ post.published)
 *              -->  published/first_comment (Instagram's first comment), then done.
 *
 * Never twice: every run of the processing step asks the container's state before
 * publishing, so a run repeated after a crash between the platform's answer and our commit
 * finds the container `published` and takes the post it became (adapter.findPublished).
 * Failures: passing ones (`transient`, `rate_limited`) are retried with backoff, never sooner
 * than the platform asks, until PUBLISH_RETRY_WINDOW_SECONDS after the try started; the
 * others fail the target at once (+ post.failed), an ended token marking its account first.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import {
  type AccountCredentials,
  type Platform,
  type PlatformAdapter,
  PlatformError,
  type PlatformSet,
  type PublishedPost,
  type PublishRequest,
  platformInfo,
} from '../../platforms/index.ts';
import { accountById, credentialsOf, noteAccountFailure } from '../accounts/index.ts';
import { emit } from '../events/index.ts';
import { findMedia, type MediaUrlContext, mediaFetchUrl } from '../media/index.ts';
import type { PlatformsJson } from './json.ts';
import { publishOptions, targetText } from './options.ts';
import { queuePublish, refreshPostStatus } from './service.ts';
import { type Post, type PostTarget, posts, postTargets, type TargetError } from './tables.ts';

export interface PublishDeps {
  db: Db;
  secretKey: Buffer;
  platforms: PlatformSet;
  media: MediaUrlContext;
  /** How long passing failures of one try are retried. */
  publishRetryWindowMs: number;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** A spent quota is read again this often (platforms do not say when it frees). */
const QUOTA_RECHECK_MS = 10 * 60_000;
const FIRST_POLL_MS = 2_000;
const LONGEST_POLL_MS = 60_000;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 15 * 60_000;

/** Waits between container polls: 2 s, growing by half each time, at most a minute. */
function pollDelay(polls: number): number {
  return Math.min(FIRST_POLL_MS * 1.5 ** polls, LONGEST_POLL_MS);
}

/** A failure a target ends with. */
class TargetFailure extends Error {
  constructor(readonly error: TargetError) {
    super(error.message);
  }
}

function failure(code: string, message: string, platformCode: string | null = null): TargetFailure {
  return new TargetFailure({ code, message, platform_code: platformCode });
}

interface Loaded {
  target: PostTarget;
  post: Post;
}

/** The target and its post; locked FOR UPDATE (the target's row) when read in a transaction that will change it. */
async function loadTarget(db: Queryable, targetId: string, lock: boolean): Promise<Loaded | null> {
  const query = db
    .select({ target: postTargets, post: posts })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(eq(postTargets.id, targetId));
  const [row] = lock ? await query.for('update', { of: postTargets }) : await query;
  return row ?? null;
}

/** Changes a `publishing` target (one cancelled meanwhile is left alone); false when it was not. */
async function updatePublishing(tx: Tx, targetId: string, values: Partial<PostTarget>): Promise<boolean> {
  const rows = await tx
    .update(postTargets)
    .set({ ...values, updatedAt: now() })
    .where(and(eq(postTargets.id, targetId), eq(postTargets.status, 'publishing')))
    .returning({ id: postTargets.id });
  return rows.length > 0;
}

/** A `publishing` target waits (saying why) and its next step is queued for then; a cancelled one is left. */
async function waitUntil(deps: PublishDeps, targetId: string, next: Date, values: Partial<PostTarget>): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (await updatePublishing(tx, targetId, values)) await queuePublish(tx, targetId, next);
  });
}

/**
 * Starts a due `scheduled` target (status `publishing`, a new try) and answers it; a target
 * not due yet is queued for its time, one done or gone is left: null then.
 */
async function begin(deps: PublishDeps, targetId: string): Promise<Loaded | null> {
  // One job per target at a time (its job key) and every change conditional on the status:
  // reading a target already started needs no lock; starting one does.
  const seen = await loadTarget(deps.db, targetId, false);
  if (seen?.target.status === 'publishing') return seen;
  if (seen?.target.status === 'published' && seen.target.step === 'first_comment') return seen;
  if (seen?.target.status !== 'scheduled') return null;
  return await deps.db.transaction(async (tx) => {
    const loaded = await loadTarget(tx, targetId, true);
    if (loaded?.target.status !== 'scheduled') return null;
    const { target, post } = loaded;
    const at = now();
    if (post.scheduledAt.getTime() > at.getTime()) {
      await queuePublish(tx, target.id, post.scheduledAt);
      return null;
    }
    const [started] = await tx
      .update(postTargets)
      .set({
        status: 'publishing',
        step: 'quota',
        attempts: target.attempts + 1,
        polls: 0,
        containerId: null,
        retryUntil: new Date(at.getTime() + deps.publishRetryWindowMs),
        waitingReason: null,
        error: null,
        updatedAt: at,
      })
      .where(eq(postTargets.id, target.id))
      .returning();
    await refreshPostStatus(tx, post.id);
    return started ? { target: started, post } : null;
  });
}

/** Runs the next step of one target's publication (the `publish_target` job). */
export async function publishTarget(deps: PublishDeps, targetId: string): Promise<void> {
  const loaded = await begin(deps, targetId);
  if (!loaded) return;
  const { target, post } = loaded;
  const platform = target.platform as Platform;
  try {
    const account = await accountById(deps.db, target.accountId);
    if (account?.status !== 'connected') {
      throw failure(
        'account_not_connected',
        `Account ${target.accountId} is ${account?.status ?? 'gone'}; reconnect it, then retry the post.`,
      );
    }
    const adapter = deps.platforms.adapter(platform);
    const credentials = credentialsOf(deps.secretKey, account);
    const run = { deps, adapter, credentials, target, post, platform };
    if (target.step === 'first_comment') await writeFirstComment(run);
    else if (target.step === 'processing' && target.containerId !== null)
      await processContainer(run, target.containerId);
    else await createContainer(run);
  } catch (error) {
    await handleFailure(deps, target, error);
  }
}

interface Run {
  deps: PublishDeps;
  adapter: PlatformAdapter;
  credentials: AccountCredentials;
  target: PostTarget;
  post: Post;
  platform: Platform;
}

/** Reads the quota; spent: waits for it. Else makes the container and records it before anything else. */
async function createContainer(run: Run): Promise<void> {
  const { deps, adapter, credentials, target } = run;
  const quota = await adapter.publishingQuota(credentials);
  if (quota !== null && quota.used >= quota.limit) {
    const at = now();
    const next = new Date(at.getTime() + QUOTA_RECHECK_MS);
    await waitUntil(deps, target.id, next, {
      waitingReason: `The account's publishing quota is spent (${quota.used} of ${quota.limit} posts in ${quota.windowSeconds / 3600} hours); checking again at ${next.toISOString()}.`,
    });
    return;
  }
  const request = await publishRequest(run);
  const { containerId } = await adapter.createContainer(credentials, request);
  const recorded = {
    step: 'processing' as const,
    containerId,
    polls: 0,
    waitingReason: `Processing on ${platformInfo(run.platform).label}.`,
  };
  if (request.media.length > 0) {
    // A platform fetches and processes media for seconds at least: the first poll is due
    // then, queued with the container's record (asking at once would cost a call and a job).
    await waitUntil(deps, target.id, new Date(now().getTime() + pollDelay(0)), recorded);
    return;
  }
  // Text alone is ready at once on the platforms that take it.
  const saved = await deps.db.transaction(async (tx) => await updatePublishing(tx, target.id, recorded));
  if (saved) await processContainer({ ...run, target: { ...target, polls: 0 } }, containerId);
}

/** What the platform is asked to publish: the target's text and options, the media at URLs it can fetch. */
async function publishRequest(run: Run): Promise<PublishRequest> {
  const { deps, post, platform } = run;
  const options = post.platformOptions as PlatformsJson;
  const media = await findMedia(deps.db, post.ownerId, post.mediaIds);
  if (media.length !== post.mediaIds.length) {
    throw failure('media_unavailable', 'A medium of the post was deleted before it was published.');
  }
  const accepted = platformInfo(platform).imageTypes;
  const items = [];
  for (const item of media) {
    const convert = item.type === 'image' && !accepted.includes(item.mimeType);
    items.push({
      type: item.type,
      url: await mediaFetchUrl(deps.media, item, convert ? { format: 'jpeg' } : {}),
    });
  }
  const text = targetText(post.text, options, platform);
  return {
    ...(text === undefined ? {} : { text }),
    media: items,
    platformOptions: publishOptions(options, platform),
  };
}

/** One poll of the container; finished: publish it; already published (a repeated run): take its post. */
async function processContainer(run: Run, containerId: string): Promise<void> {
  const { deps, adapter, credentials, target } = run;
  const status = await adapter.containerStatus(credentials, containerId);
  switch (status.state) {
    case 'in_progress': {
      const next = new Date(now().getTime() + pollDelay(target.polls));
      await waitUntil(deps, target.id, next, {
        polls: target.polls + 1,
        waitingReason: status.message ?? `Processing on ${platformInfo(run.platform).label}.`,
      });
      return;
    }
    case 'failed':
      throw failure(
        'container_failed',
        `The platform could not process the post: ${status.message ?? 'no reason given'}.`,
      );
    case 'expired':
      throw failure(
        'container_expired',
        `The platform's container expired before it was published${status.message ? `: ${status.message}` : ''}.`,
      );
    case 'published': {
      const found = await adapter.findPublished(credentials, containerId);
      if (found === null) {
        throw new PlatformError('transient', 'the container is published, but its post could not be found yet', {
          platform: run.platform,
        });
      }
      deps.log.warn(
        { target_id: target.id, container_id: containerId },
        'publishing repeated after a crash: took the post the container already became',
      );
      await markPublished(run, found);
      return;
    }
    case 'finished':
      await markPublished(run, await adapter.publishContainer(credentials, containerId));
      return;
  }
}

/** Success: the target is published (even if cancelled meanwhile: what is on the platform wins) and post.published is sent. */
async function markPublished(run: Run, published: PublishedPost): Promise<void> {
  const { deps, target, post, platform } = run;
  const firstComment =
    platform === 'instagram' ? (post.platformOptions as PlatformsJson).instagram?.first_comment : undefined;
  const at = now();
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(postTargets)
      .set({
        status: 'published',
        step: firstComment === undefined ? null : 'first_comment',
        platformPostId: published.id,
        permalink: published.permalink,
        publishedAt: at,
        waitingReason: null,
        error: null,
        updatedAt: at,
      })
      .where(and(eq(postTargets.id, target.id), inArray(postTargets.status, ['publishing', 'cancelled'])))
      .returning();
    if (!row) return;
    const updated = await refreshPostStatus(tx, post.id);
    await emit(tx, {
      ownerId: updated.ownerId,
      profileId: updated.profileId,
      type: 'post.published',
      data: {
        post_id: post.id,
        target_id: target.id,
        account_id: target.accountId,
        platform,
        permalink: published.permalink,
        published_at: at.toISOString(),
      },
    });
    if (firstComment !== undefined) await queuePublish(tx, target.id, at);
  });
  deps.log.info({ target_id: target.id, post_id: post.id, platform, platform_post_id: published.id }, 'post published');
}

/** Instagram's first comment: written once; its failure is recorded on the target, which stays published. */
async function writeFirstComment(run: Run): Promise<void> {
  const { deps, adapter, credentials, target, post } = run;
  const text = (post.platformOptions as PlatformsJson).instagram?.first_comment;
  const done = async (values: Partial<PostTarget>) => {
    await deps.db
      .update(postTargets)
      .set({ ...values, step: null, updatedAt: now() })
      .where(and(eq(postTargets.id, target.id), eq(postTargets.step, 'first_comment')));
  };
  if (text === undefined || target.platformPostId === null) return await done({});
  try {
    const { id } = await adapter.commentOnPost(credentials, target.platformPostId, text);
    await done({ firstCommentId: id });
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    deps.log.warn({ target_id: target.id, err: error.message }, 'the first comment could not be written');
    await done({ firstCommentError: error.message });
  }
}

function errorOf(error: PlatformError): TargetError {
  const code = error.detail.code;
  return {
    code: error.kind,
    message: error.detail.platformMessage ?? error.message,
    platform_code: code === undefined ? null : String(code),
  };
}

/** What a failed step means: retry later (passing failures within the window), or the end of the try. */
async function handleFailure(deps: PublishDeps, target: PostTarget, error: unknown): Promise<void> {
  if (target.status === 'published') {
    // Only the first comment was left; it is given up, the post stays published.
    if (!(error instanceof TargetFailure || error instanceof PlatformError)) throw error;
    await deps.db
      .update(postTargets)
      .set({ step: null, firstCommentError: error.message, updatedAt: now() })
      .where(and(eq(postTargets.id, target.id), eq(postTargets.step, 'first_comment')));
    return;
  }
  if (error instanceof TargetFailure) return await fail(deps, target, error.error);
  if (!(error instanceof PlatformError)) throw error; // a bug or the database: graphile-worker retries the job
  if (error.kind === 'transient' || error.kind === 'rate_limited') {
    const at = now();
    const backoff = Math.min(FIRST_RETRY_MS * 2 ** target.polls, LONGEST_RETRY_MS);
    const wait = Math.max(backoff, (error.detail.retryAfterSeconds ?? 0) * 1000);
    const next = new Date(at.getTime() + wait);
    if (target.retryUntil !== null && next.getTime() <= target.retryUntil.getTime()) {
      await waitUntil(deps, target.id, next, {
        polls: target.polls + 1,
        waitingReason: `Retrying at ${next.toISOString()} after a passing failure: ${error.message}`,
      });
      deps.log.warn(
        { target_id: target.id, retry_at: next.toISOString(), err: error.message },
        'publishing failed for now; retrying',
      );
      return;
    }
  }
  await fail(deps, target, errorOf(error), error);
}

async function fail(
  deps: PublishDeps,
  target: PostTarget,
  targetError: TargetError,
  cause?: PlatformError,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (cause) await noteAccountFailure(tx, target.accountId, cause);
    const [row] = await tx
      .update(postTargets)
      .set({ status: 'failed', step: null, waitingReason: null, error: targetError, updatedAt: now() })
      .where(and(eq(postTargets.id, target.id), eq(postTargets.status, 'publishing')))
      .returning();
    if (!row) return;
    const post = await refreshPostStatus(tx, row.postId);
    await emit(tx, {
      ownerId: post.ownerId,
      profileId: post.profileId,
      type: 'post.failed',
      data: {
        post_id: post.id,
        target_id: row.id,
        account_id: row.accountId,
        platform: row.platform,
        error_code: targetError.code,
        error_message: targetError.message,
      },
    });
  });
  deps.log.warn({ target_id: target.id, error: targetError }, 'publishing failed');
}
