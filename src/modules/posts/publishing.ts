/**
 * Publishing one target: a chain of `publish_target` jobs, each doing one short step and
 * queueing the next at the time it is due, so no worker slot waits on a platform.
 *
 *   scheduled  --(due)-->  publishing/quota: read the quota; spent -> wait and read again;
 *                          else create the container and record its id (before publishing)
 *              -->  publishing/processing: poll the container (a job per poll, backing off);
 *                          finished -> claim the publish -> publish -> published (+ post.published)
 *              -->  published/first_comment (Instagram's first comment), then done.
 *
 * Never twice:
 * - every run of the processing step asks the container's state before publishing, so a run
 *   repeated after a crash between the platform's answer and our commit finds the container
 *   `published` and takes the post it became (adapter.findPublished);
 * - a publish is claimed first (a conditional update), so two runs of one target (a job
 *   unlocked while its worker still ran) cannot both publish;
 * - a new try (POST .../retry) of a target that has a container asks that container first
 *   (step `recheck`): one published meanwhile is taken, not published again;
 * - where creating the container is itself the publication (TikTok's video/init), the
 *   creation is recorded (step `creating`) before the call: a run that finds it unfinished,
 *   or a creation whose answer was lost, ends with `outcome_unknown` rather than a second post.
 * Failures: passing ones (`transient`, `rate_limited`) are retried with backoff, never sooner
 * than the platform asks, until PUBLISH_RETRY_WINDOW_SECONDS after the try (or its container)
 * started; the others fail the target at once (+ post.failed), an ended token marking its
 * account first. Other errors (a bug, the database) are retried by graphile-worker within the
 * same window, then fail the target with `internal_error`.
 *
 * Lock order, everywhere a post's targets change: the post's row, then target rows (the API's
 * PATCH, DELETE and retry do the same), so concurrent jobs of one post never deadlock.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { backoffMs } from '../../jobs/backoff.ts';
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
import { lockPost, queuePublish, refreshPostStatus } from './service.ts';
import { type Post, type PostTarget, type PublishStep, posts, postTargets, type TargetError } from './tables.ts';

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
/** Passing failures of a step: 30 s, doubling, at most 15 minutes. */
const RETRY = { firstMs: 30_000, capMs: 15 * 60_000 };

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

/** The target and its post; the target's row locked FOR UPDATE when read to be changed (its post's row locked first). */
async function loadTarget(db: Queryable, targetId: string, lock: boolean): Promise<Loaded | null> {
  const query = db
    .select({ target: postTargets, post: posts })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(eq(postTargets.id, targetId));
  const [row] = lock ? await query.for('update', { of: postTargets }) : await query;
  return row ?? null;
}

/** Changes a `publishing` target (one cancelled meanwhile is left alone), at `step` when given; false when it was not. */
async function updatePublishing(
  tx: Queryable,
  targetId: string,
  values: Partial<PostTarget>,
  step?: PublishStep,
): Promise<boolean> {
  const rows = await tx
    .update(postTargets)
    .set({ ...values, updatedAt: now() })
    .where(
      and(
        eq(postTargets.id, targetId),
        eq(postTargets.status, 'publishing'),
        step === undefined ? undefined : eq(postTargets.step, step),
      ),
    )
    .returning({ id: postTargets.id });
  return rows.length > 0;
}

/** A `publishing` target waits (saying why) and its next step is queued for then; a cancelled one is left. */
async function waitUntil(deps: PublishDeps, targetId: string, next: Date, values: Partial<PostTarget>): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (await updatePublishing(tx, targetId, values)) await queuePublish(tx, targetId, next);
  });
}

/** Steps a job continues; any other step of a `published` target means nothing is left to do. */
const PUBLISHED_STEPS: readonly (PublishStep | null)[] = ['first_comment', 'first_comment_sending'];

/**
 * Starts a due `scheduled` target (status `publishing`, a new try) and answers it; a target
 * not due yet is queued for its time, one done or gone is left: null then.
 */
async function begin(deps: PublishDeps, targetId: string): Promise<Loaded | null> {
  // One job per target at a time (its job key), and every change conditional on the status
  // and step: reading a target already started needs no lock; starting one does.
  const seen = await loadTarget(deps.db, targetId, false);
  if (seen?.target.status === 'publishing') return seen;
  if (seen?.target.status === 'published' && PUBLISHED_STEPS.includes(seen.target.step)) return seen;
  if (seen?.target.status !== 'scheduled') return null;
  return await deps.db.transaction(async (tx) => {
    await lockPost(tx, seen.post.id);
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
        // A container of an earlier try may have been published after all: asked first.
        step: target.containerId === null ? 'quota' : 'recheck',
        attempts: target.attempts + 1,
        polls: 0,
        failures: 0,
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
    if (target.step === 'first_comment_sending') {
      // A run died while writing the first comment: whether it was written is unknown, and
      // writing it again could make two.
      throw failure('outcome_unknown', 'Writing the first comment was interrupted; it may or may not be on the post.');
    }
    if (target.step === 'creating') {
      throw failure(
        'outcome_unknown',
        `Creating the post on ${platformInfo(platform).label} was interrupted, and ${platformInfo(platform).label} publishes what it received by itself; check the account, then retry the post if it is not there.`,
      );
    }
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
    else if (target.step === 'recheck' && target.containerId !== null) await recheckContainer(run, target.containerId);
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
  const { deps, adapter, credentials, target, platform } = run;
  const quota = await adapter.publishingQuota(credentials);
  if (quota !== null && quota.used >= quota.limit) {
    const next = new Date(now().getTime() + QUOTA_RECHECK_MS);
    await waitUntil(deps, target.id, next, {
      waitingReason: `The account's publishing quota is spent (${quota.used} of ${quota.limit} posts in ${quota.windowSeconds / 3600} hours); checking again at ${next.toISOString()}.`,
    });
    return;
  }
  const request = await publishRequest(run);
  const publishes = platformInfo(platform).containerPublishes;
  if (publishes && !(await updatePublishing(deps.db, target.id, { step: 'creating' }))) return;
  let containerId: string;
  try {
    ({ containerId } = await adapter.createContainer(credentials, request));
  } catch (error) {
    if (publishes) {
      // A passing failure may have reached the platform, which would then publish by itself.
      if (!(error instanceof PlatformError) || error.kind === 'transient') {
        throw failure(
          'outcome_unknown',
          `${platformInfo(platform).label} may or may not have received the post (${error instanceof Error ? error.message : String(error)}); check the account, then retry the post if it is not there.`,
        );
      }
      // A refusal: nothing was received, and the step may be tried again.
      await updatePublishing(deps.db, target.id, { step: 'quota' }, 'creating');
    }
    throw error;
  }
  const at = now();
  const recorded = {
    step: 'processing' as const,
    containerId,
    polls: 0,
    failures: 0,
    // Passing failures get a full window from here, however long the quota was waited for.
    retryUntil: new Date(at.getTime() + deps.publishRetryWindowMs),
    waitingReason: `Processing on ${platformInfo(platform).label}.`,
  };
  if (request.media.length > 0) {
    // A platform fetches and processes media for seconds at least: the first poll is due
    // then, queued with the container's record (asking at once would cost a call and a job).
    await waitUntil(deps, target.id, new Date(at.getTime() + pollDelay(0)), recorded);
    return;
  }
  // Text alone has nothing to fetch: its container is often ready at once, so its status is
  // asked now (still processing, it is polled like any other).
  const saved = await updatePublishing(deps.db, target.id, recorded);
  if (saved) await processContainer({ ...run, target: { ...target, ...recorded } }, containerId);
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
      // Some rules on a video's length are known only now (TikTok's, per account).
      durationSeconds: item.durationSeconds,
    });
  }
  const text = targetText(post.text, options, platform);
  return {
    ...(text === undefined ? {} : { text }),
    media: items,
    platformOptions: publishOptions(options, platform),
  };
}

/**
 * A new try of a target whose earlier try made a container: published meanwhile, it is
 * taken; still usable, it is polled and published; failed or expired, a new one is made.
 */
async function recheckContainer(run: Run, containerId: string): Promise<void> {
  const { deps, adapter, credentials, target } = run;
  const status = await adapter.containerStatus(credentials, containerId);
  if (status.state === 'failed' || status.state === 'expired') {
    const fresh = { step: 'quota' as const, containerId: null };
    if (await updatePublishing(deps.db, target.id, fresh, 'recheck')) {
      await createContainer({ ...run, target: { ...target, ...fresh } });
    }
    return;
  }
  if (!(await updatePublishing(deps.db, target.id, { step: 'processing' }, 'recheck'))) return;
  await processContainer({ ...run, target: { ...target, step: 'processing' } }, containerId, status);
}

/** One poll of the container; finished: publish it; already published (a repeated run): take its post. */
async function processContainer(
  run: Run,
  containerId: string,
  known?: Awaited<ReturnType<PlatformAdapter['containerStatus']>>,
): Promise<void> {
  const { deps, adapter, credentials, target, platform } = run;
  const status = known ?? (await adapter.containerStatus(credentials, containerId));
  switch (status.state) {
    case 'in_progress': {
      const next = new Date(now().getTime() + pollDelay(target.polls));
      await waitUntil(deps, target.id, next, {
        polls: target.polls + 1,
        waitingReason: status.message ?? `Processing on ${platformInfo(platform).label}.`,
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
          platform,
        });
      }
      // Where the platform publishes by itself, `published` is how every publication ends.
      if (!platformInfo(platform).containerPublishes) {
        deps.log.warn(
          { target_id: target.id, container_id: containerId },
          'the container was already published (a run repeated after a crash): took its post instead of publishing again',
        );
      }
      await markPublished(run, found);
      return;
    }
    case 'finished': {
      if (!(await claimPublish(deps.db, target))) return;
      await markPublished(run, await adapter.publishContainer(credentials, containerId));
      return;
    }
  }
}

/**
 * Claims the publish of a finished container: moves `polls` on if it is still what this run
 * read. Of two runs of one target (a job unlocked while its worker still ran), one publishes.
 */
async function claimPublish(db: Queryable, target: PostTarget): Promise<boolean> {
  const rows = await db
    .update(postTargets)
    .set({ polls: target.polls + 1, updatedAt: now() })
    .where(
      and(
        eq(postTargets.id, target.id),
        eq(postTargets.status, 'publishing'),
        eq(postTargets.step, 'processing'),
        eq(postTargets.polls, target.polls),
      ),
    )
    .returning({ id: postTargets.id });
  return rows.length > 0;
}

/** Success: the target is published (even if cancelled meanwhile: what is on the platform wins) and post.published is sent. */
async function markPublished(run: Run, published: PublishedPost): Promise<void> {
  const { deps, target, post, platform } = run;
  const firstComment =
    platform === 'instagram' ? (post.platformOptions as PlatformsJson).instagram?.first_comment : undefined;
  const at = now();
  await deps.db.transaction(async (tx) => {
    await lockPost(tx, post.id);
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
    await reportOutcome(tx, row, 'post.published', {
      permalink: published.permalink,
      published_at: at.toISOString(),
    });
    if (firstComment !== undefined) await queuePublish(tx, target.id, at);
  });
  deps.log.info({ target_id: target.id, post_id: post.id, platform, platform_post_id: published.id }, 'post published');
}

/** Sets a published target's first-comment outcome, leaving its step, if it is still at `from`. */
async function endFirstComment(
  db: Queryable,
  targetId: string,
  from: readonly PublishStep[],
  values: Partial<PostTarget>,
): Promise<boolean> {
  const rows = await db
    .update(postTargets)
    .set({ ...values, step: null, updatedAt: now() })
    .where(and(eq(postTargets.id, targetId), inArray(postTargets.step, [...from])))
    .returning({ id: postTargets.id });
  return rows.length > 0;
}

/** Instagram's first comment: written at most once (marked before the call); its failure is recorded, the post stays published. */
async function writeFirstComment(run: Run): Promise<void> {
  const { deps, adapter, credentials, target, post } = run;
  const text = (post.platformOptions as PlatformsJson).instagram?.first_comment;
  if (text === undefined || target.platformPostId === null) {
    await endFirstComment(deps.db, target.id, ['first_comment'], {});
    return;
  }
  const [marked] = await deps.db
    .update(postTargets)
    .set({ step: 'first_comment_sending', updatedAt: now() })
    .where(and(eq(postTargets.id, target.id), eq(postTargets.step, 'first_comment')))
    .returning({ id: postTargets.id });
  if (!marked) return;
  const { id } = await adapter.commentOnPost(credentials, target.platformPostId, text);
  await endFirstComment(deps.db, target.id, ['first_comment_sending'], { firstCommentId: id });
}

function errorOf(error: PlatformError): TargetError {
  const code = error.detail.code;
  return {
    // The post breaks the platform's rules, found before it was sent: as POST /v1/posts says it.
    code: (error.detail.problems?.length ?? 0) > 0 ? 'validation_failed' : error.kind,
    message: error.detail.platformMessage ?? error.message,
    platform_code: code === undefined ? null : String(code),
  };
}

/** What a failed step means: retry later (passing failures within the window), or the end of the try. */
async function handleFailure(deps: PublishDeps, target: PostTarget, error: unknown): Promise<void> {
  if (target.status === 'published') {
    // Only the first comment was left; it is given up, the post stays published.
    if (!(error instanceof TargetFailure || error instanceof PlatformError)) throw error;
    deps.log.warn({ target_id: target.id, err: error.message }, 'the first comment could not be written');
    await endFirstComment(deps.db, target.id, PUBLISHED_STEPS as PublishStep[], { firstCommentError: error.message });
    return;
  }
  if (error instanceof TargetFailure) return await fail(deps, target, error.error);
  const windowEnded = target.retryUntil !== null && now().getTime() > target.retryUntil.getTime();
  if (!(error instanceof PlatformError)) {
    // A bug or the database: graphile-worker runs the job again, until the window ends.
    deps.log.error({ target_id: target.id, err: error }, 'publishing step failed unexpectedly');
    if (!windowEnded) throw error;
    const message = `Publishing failed on an internal error: ${error instanceof Error ? error.message : String(error)}`;
    return await fail(deps, target, { code: 'internal_error', message, platform_code: null });
  }
  if (error.passing) {
    const wait = backoffMs(target.failures, RETRY, error.detail.retryAfterSeconds);
    const next = new Date(now().getTime() + wait);
    if (target.retryUntil !== null && next.getTime() <= target.retryUntil.getTime()) {
      await waitUntil(deps, target.id, next, {
        failures: target.failures + 1,
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

/** A target's final outcome: its post's status follows, and the event says it (in the same transaction). */
async function reportOutcome(
  tx: Tx,
  target: PostTarget,
  type: 'post.published' | 'post.failed',
  data: Record<string, unknown>,
): Promise<void> {
  const post = await refreshPostStatus(tx, target.postId);
  await emit(tx, {
    ownerId: post.ownerId,
    profileId: post.profileId,
    type,
    data: { post_id: post.id, target_id: target.id, account_id: target.accountId, platform: target.platform, ...data },
  });
}

async function fail(
  deps: PublishDeps,
  target: PostTarget,
  targetError: TargetError,
  cause?: PlatformError,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await lockPost(tx, target.postId);
    const [row] = await tx
      .update(postTargets)
      .set({ status: 'failed', step: null, waitingReason: null, error: targetError, updatedAt: now() })
      .where(and(eq(postTargets.id, target.id), eq(postTargets.status, 'publishing')))
      .returning();
    if (cause) await noteAccountFailure(tx, target.accountId, cause);
    if (!row) return;
    await reportOutcome(tx, row, 'post.failed', {
      error_code: targetError.code,
      error_message: targetError.message,
    });
  });
  deps.log.warn({ target_id: target.id, error: targetError }, 'publishing failed');
}
