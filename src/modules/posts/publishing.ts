/**
 * Publishing one target: a chain of `publish_target` jobs, each doing one short step and
 * queueing the next at the time it is due, so no worker slot waits on a platform. The states
 * and every allowed move between them are in target-workflow.ts; in short:
 *
 *   scheduled  --(due)-->  quota: read the quota; spent -> wait and read again;
 *                          else create the container and record its id (before publishing)
 *              -->  processing: poll the container (a job per poll, waits growing);
 *                          finished -> claimed -> publish -> published (+ post.published)
 *              -->  after_publish (a step the adapter declares: Instagram's first comment), then done.
 *
 * Never twice:
 * - every run of the processing step asks the container's state before publishing, so a run
 *   repeated after a crash between the platform's answer and our commit finds the container
 *   `published` and takes the post it became (adapter.findPublished);
 * - a publish is claimed first (processing -> claimed, a conditional update), so two runs of
 *   one target (a job unlocked while its worker still ran) cannot both publish; a claimed run
 *   that ended without an outcome goes back to asking the container;
 * - a new try (POST .../retry) of a target that has a container asks that container first
 *   (step `recheck`): one published meanwhile is taken, not published again;
 * - where creating the container is itself the publication (TikTok's video/init), the
 *   creation is recorded (step `creating`) before the call: a run that finds it unfinished,
 *   or a creation whose answer was lost, ends with `outcome_unknown` rather than a second post.
 * Failures: passing ones (`transient`, `rate_limited`) are retried after RETRY's waits (never
 * sooner than the platform asks), until PUBLISH_RETRY_WINDOW_SECONDS after the try (or its container)
 * started; the others fail the target at once (+ post.failed), an ended token marking its
 * account first. Other errors (a bug, the database) are retried by graphile-worker within the
 * same window, then fail the target with `internal_error`.
 *
 * An expired account (found so when the target's time comes, or told by the platform during a
 * step) can be reconnected by its owner: the target waits for that in its step (`wait`,
 * waiting_reason `account_expired`) until ACCOUNT_RECONNECT_GRACE_SECONDS after it began to,
 * making no platform call; the reconnection (`account.connected`, reconnected) queues it at once
 * and it goes on (`reconnected`); the grace time over, it fails with `account_not_connected`.
 * A disconnected account is not waited for: it was removed on purpose.
 *
 * Lock order, everywhere a post's targets change: the post's row, then target rows (the API's
 * PATCH, DELETE and retry do the same), so concurrent jobs of one post never deadlock.
 */

import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { retryAt, retryPolicy } from '../../jobs/retry.ts';
import { transition } from '../../jobs/workflow.ts';
import { sharedCounter, sharedHistogram } from '../../metrics/shared.ts';
import {
  type AccountCredentials,
  type ContainerStatus,
  type Platform,
  type PlatformAdapter,
  PlatformError,
  type PlatformSet,
  type PublishedPost,
  type PublishRequest,
  platformInfo,
} from '../../platforms/index.ts';
import { type Account, accountById, credentialsOf, noteAccountFailure } from '../accounts/index.ts';
import { emit, type RecordedEvent } from '../events/index.ts';
import { findMedia, type MediaUrlContext, mediaFetchUrl } from '../media/index.ts';
import { platformOptions, targetText } from './options.ts';
import { lockPost, refreshPostStatus } from './post-status.ts';
import { queuePublish, queuePublishOfMoved } from './publish-jobs.ts';
import { type Post, type PostTarget, posts, postTargets, type TargetError } from './tables.ts';
import { type TargetState, targetStates } from './target-workflow.ts';

export interface PublishDeps {
  db: Db;
  secretKey: Buffer;
  platforms: PlatformSet;
  media: MediaUrlContext;
  /** How long passing failures of one try are retried. */
  publishRetryWindowMs: number;
  /** How long a target whose account expired waits for its reconnection (0: it fails at once). */
  accountReconnectGraceMs: number;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/**
 * The waiting_reason of a target waiting for its expired account's reconnection: a code, not a
 * sentence like the other reasons, so that clients can tell this wait (one their user can end)
 * from the others.
 */
const ACCOUNT_EXPIRED = 'account_expired';

/** A spent quota is read again this often (platforms do not say when it frees). */
const QUOTA_RECHECK_MS = 10 * 60_000;
/** Passing failures of a step: 30 s, doubling, at most 15 minutes. */
const RETRY = retryPolicy({ firstMs: 30_000, factor: 2, capMs: 15 * 60_000, jitter: 0.2 });
/**
 * Container polls: 2 s, growing by half, at most a minute. No jitter: the wait is the
 * platform's processing time, and a poll before it is over only costs a call and a job.
 */
const POLLS = retryPolicy({ firstMs: 2_000, factor: 1.5, capMs: 60_000, jitter: 0 });

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

/**
 * The target and its post; with `lockPost`, the post's row is locked (as lockPost locks it) in
 * the same statement. The post is then read as locked, the target as the statement began (a
 * change committed while the lock was waited for is not seen): what acts on it must be a
 * conditional transition, which such a change makes fail, or read the target again.
 */
async function loadTarget(
  db: Queryable,
  targetId: string,
  options: { lockPost?: boolean } = {},
): Promise<Loaded | null> {
  const query = db
    .select({ target: postTargets, post: posts })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(eq(postTargets.id, targetId));
  const [row] = options.lockPost ? await query.for('update', { of: posts }) : await query;
  return row ?? null;
}

/** The state a target's row is in. */
function stateOf(target: PostTarget): TargetState | undefined {
  const found = Object.entries(targetStates.workflow.states).find(
    ([, columns]) => columns.status === target.status && columns.step === target.step,
  );
  return found?.[0] as TargetState | undefined;
}

/** A target waits (saying why) in its state, and its next step is queued for then; one moved on meanwhile is left. */
async function waitUntil(db: Queryable, target: PostTarget, next: Date, values: Partial<PostTarget>): Promise<void> {
  const state = stateOf(target);
  if (state === undefined || !targetStates.workflow.transitions.wait.from.includes(state)) return;
  await transition(db, targetStates, target.id, 'wait', {
    from: [state],
    set: values,
    effect: queuePublishOfMoved(next),
  });
}

/**
 * Starts a due `scheduled` target (a new try) and answers it, or one already started; a
 * target not due yet is queued for its time, one done or gone is left: null then.
 */
async function begin(deps: PublishDeps, targetId: string): Promise<Loaded | null> {
  // One job per target at a time (its job key), and every change a conditional transition:
  // reading a target already started needs no lock; starting one takes its post's lock.
  const seen = await loadTarget(deps.db, targetId);
  const state = seen === null ? undefined : stateOf(seen.target);
  if (seen !== null && state !== undefined && STEPS[state] !== null) return seen;
  if (seen === null || state !== 'scheduled') return null;
  return await deps.db.transaction(async (tx) => {
    const loaded = await loadTarget(tx, targetId, { lockPost: true });
    if (loaded?.target.status !== 'scheduled') return null;
    const { target, post } = loaded;
    const at = now();
    if (post.scheduledAt.getTime() > at.getTime()) {
      // Not a transition: read again under the lock, so a target an edit replaced meanwhile gets no job.
      if ((await loadTarget(tx, targetId))?.target.status === 'scheduled') {
        await queuePublish(tx, target.id, post.scheduledAt);
      }
      return null;
    }
    // A container of an earlier try may have been published after all: asked first.
    const started = await transition(
      tx,
      targetStates,
      target.id,
      target.containerId === null ? 'start' : 'start_with_container',
      {
        set: {
          attempts: target.attempts + 1,
          polls: 0,
          failures: 0,
          retryUntil: new Date(at.getTime() + deps.publishRetryWindowMs),
          waitingReason: null,
          // A new try waits its own grace time for a reconnection.
          accountWaitUntil: null,
          error: null,
        },
      },
    );
    await refreshPostStatus(tx, post.id);
    return started ? { target: started, post } : null;
  });
}

/**
 * What became of a target whose account was found expired: it waits for a reconnection; its
 * grace time ended (`until`); or the account is no longer expired (reconnected, or
 * disconnected meanwhile), as it is now.
 */
type AccountWait = { waiting: true } | { ended: Date } | { account: Account | null };

/**
 * A target whose account is expired waits for its reconnection, in its step, until the grace
 * time that began with its first such wait of this try ends; `cause`, the platform's word that
 * the token expired, marks the account first (with `account.expired`).
 */
async function awaitReconnection(
  deps: PublishDeps,
  target: PostTarget,
  cause?: PlatformError,
  madeWith?: Date,
): Promise<AccountWait> {
  return await deps.db.transaction(async (tx) => {
    if (cause) await noteAccountFailure(tx, target.accountId, cause, madeWith);
    // The account's row is held (shared) until the wait is recorded: a reconnection that
    // commits first is seen here, and one that commits later finds the target waiting and
    // queues it (queueTargetsOfReturnedAccounts); none is missed.
    const account = await accountById(tx, target.accountId, 'share');
    if (account?.status !== 'expired') return { account };
    const at = now();
    if (target.accountWaitUntil !== null && at.getTime() >= target.accountWaitUntil.getTime()) {
      return { ended: target.accountWaitUntil };
    }
    const until = target.accountWaitUntil ?? new Date(at.getTime() + deps.accountReconnectGraceMs);
    await waitUntil(tx, target, until, { waitingReason: ACCOUNT_EXPIRED, accountWaitUntil: until });
    return { waiting: true };
  });
}

/** States a target may wait for its account in, and go on from once it is reconnected. */
const ACCOUNT_WAIT_STATES: readonly TargetState[] = targetStates.workflow.transitions.reconnected.from;

/**
 * What a `publish_target` job does with a target, by the state it finds it in: nothing (null:
 * not started, which `begin` starts when it is due, or done); end the try, for a step whose run
 * died while it ran (`interrupted`: whether it acted is unknown, and running it again could act
 * twice); or run a step, which calls the platform as the account once it is connected.
 */
type Step =
  | null
  | { readonly interrupted: (platform: Platform) => TargetFailure }
  | { readonly run: (run: Run) => Promise<void> };

/** Every state's step: a state the workflow gains has no step until one is written here. */
const STEPS: { readonly [S in TargetState]: Step } = {
  draft: null,
  awaiting_approval: null,
  scheduled: null,
  quota: { run: createContainer },
  creating: {
    interrupted: (platform) =>
      failure(
        'outcome_unknown',
        `Creating the post on ${platformInfo(platform).label} was interrupted, and ${platformInfo(platform).label} publishes what it received by itself; check the account, then retry the post if it is not there.`,
      ),
  },
  processing: { run: onContainer(processContainer) },
  claimed: { run: onContainer(resumeClaimed) },
  recheck: { run: onContainer(recheckContainer) },
  published: null,
  after_publish: { run: runAfterPublish },
  after_publish_running: {
    interrupted: () =>
      failure('outcome_unknown', 'Writing the first comment was interrupted; it may or may not be on the post.'),
  },
  failed: null,
  cancelled: null,
};

/** A step on the target's container; a target in its state without one makes one, as from `quota`. */
function onContainer(step: (run: Run, containerId: string) => Promise<void>): (run: Run) => Promise<void> {
  return async (run) =>
    run.target.containerId === null ? await createContainer(run) : await step(run, run.target.containerId);
}

/** Runs the next step of one target's publication (the `publish_target` job). */
export async function publishTarget(deps: PublishDeps, targetId: string): Promise<void> {
  const loaded = await begin(deps, targetId);
  if (!loaded) return;
  const { post } = loaded;
  let { target } = loaded;
  const platform = target.platform;
  const state = stateOf(target);
  const step = state === undefined ? null : STEPS[state];
  if (state === undefined || step === null) return;
  // The connection the platform calls are made with: a refusal of its token must not end a
  // connection made since (a reconnection while the call was on its way).
  let madeWith: Date | undefined;
  try {
    if ('interrupted' in step) throw step.interrupted(platform);
    let account = await accountById(deps.db, target.accountId);
    // Only a try still to publish waits: after publishing, only the first comment is left.
    const mayWait = ACCOUNT_WAIT_STATES.includes(state) && deps.accountReconnectGraceMs > 0;
    if (account?.status === 'expired' && mayWait) {
      const waited = await awaitReconnection(deps, target);
      if ('waiting' in waited) return;
      if ('ended' in waited) {
        throw failure(
          'account_not_connected',
          `Account ${target.accountId} is expired; the post waited for it to be reconnected until ${waited.ended.toISOString()}. Reconnect it, then retry the post.`,
        );
      }
      account = waited.account;
    }
    if (account?.status !== 'connected') {
      throw failure(
        'account_not_connected',
        `Account ${target.accountId} is ${account?.status ?? 'gone'}; reconnect it, then retry the post.`,
      );
    }
    if (target.accountWaitUntil !== null && ACCOUNT_WAIT_STATES.includes(state)) {
      // Reconnected: the try goes on, with a full window for passing failures however long it waited.
      const resumed = await transition(deps.db, targetStates, target.id, 'reconnected', {
        from: [state],
        set: {
          accountWaitUntil: null,
          waitingReason: null,
          failures: 0,
          retryUntil: new Date(now().getTime() + deps.publishRetryWindowMs),
        },
      });
      if (!resumed) return;
      target = resumed;
    }
    const adapter = deps.platforms.adapter(platform);
    const credentials = credentialsOf(deps.secretKey, account);
    madeWith = account.connectedAt;
    await step.run({ deps, adapter, credentials, target, post, platform });
  } catch (error) {
    await handleFailure(deps, target, error, madeWith);
  }
}

const outcomesMetric = sharedCounter({
  name: 'switchboard_publish_targets_total',
  help: 'Publishing targets (a post on one account) ended, by platform and outcome: published or failed.',
  labelNames: ['platform', 'outcome'],
});
const latenessMetric = sharedHistogram({
  name: 'switchboard_publish_lateness_seconds',
  help: "From a post's scheduled time to its publication on the platform, by platform (retries included).",
  labelNames: ['platform'],
  buckets: [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 21_600],
});

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
  const quota = await adapter.publishing.publishingQuota(credentials);
  if (quota !== null && quota.used >= quota.limit) {
    const next = new Date(now().getTime() + QUOTA_RECHECK_MS);
    await waitUntil(deps.db, target, next, {
      waitingReason: `The account's publishing quota is spent (${quota.used} of ${quota.limit} posts in ${quota.windowSeconds / 3600} hours); checking again at ${next.toISOString()}.`,
    });
    return;
  }
  const request = await publishRequest(run);
  const publishes = platformInfo(platform).publishing.containerPublishes;
  if (publishes && !(await transition(deps.db, targetStates, target.id, 'create'))) return;
  let containerId: string;
  try {
    ({ containerId } = await adapter.publishing.createContainer(credentials, request));
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
      await transition(deps.db, targetStates, target.id, 'creation_refused');
    }
    throw error;
  }
  const at = now();
  const recorded = {
    containerId,
    polls: 0,
    failures: 0,
    // Passing failures get a full window from here, however long the quota was waited for.
    retryUntil: new Date(at.getTime() + deps.publishRetryWindowMs),
    waitingReason: `Processing on ${platformInfo(platform).label}.`,
  };
  const from: TargetState = publishes ? 'creating' : 'quota';
  if (request.media.length > 0) {
    // A platform fetches and processes media for seconds at least: the first poll is due
    // then, queued with the container's record (asking at once would cost a call and a job).
    await transition(deps.db, targetStates, target.id, 'container_made', {
      from: [from],
      set: recorded,
      effect: queuePublishOfMoved(retryAt(at, POLLS, 0)),
    });
    return;
  }
  // Text alone has nothing to fetch: its container is often ready at once, so its status is
  // asked now (still processing, it is polled like any other).
  const saved = await transition(deps.db, targetStates, target.id, 'container_made', { from: [from], set: recorded });
  if (saved) await processContainer({ ...run, target: saved }, containerId);
}

/** What the platform is asked to publish: the target's text and options, the media at URLs it can fetch. */
async function publishRequest(run: Run): Promise<PublishRequest> {
  const { deps, post, platform } = run;
  const options = post.platformOptions;
  const media = await findMedia(deps.db, post.ownerId, post.mediaIds);
  if (media.length !== post.mediaIds.length) {
    throw failure('media_unavailable', 'A medium of the post was deleted before it was published.');
  }
  const accepted = platformInfo(platform).publishing.imageTypes;
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
    options: platformOptions(options, platform),
  };
}

/**
 * A new try of a target whose earlier try made a container: published meanwhile, it is
 * taken; still usable, it is polled and published; failed or expired, a new one is made.
 */
async function recheckContainer(run: Run, containerId: string): Promise<void> {
  const { deps, adapter, credentials, target } = run;
  const status = await adapter.publishing.containerStatus(credentials, containerId);
  if (status.state === 'failed' || status.state === 'expired') {
    const fresh = await transition(deps.db, targetStates, target.id, 'container_unusable', {
      set: { containerId: null },
    });
    if (fresh) await createContainer({ ...run, target: fresh });
    return;
  }
  const usable = await transition(deps.db, targetStates, target.id, 'container_usable');
  if (usable) await processContainer({ ...run, target: usable }, containerId, status);
}

/** A claimed publish whose run ended without an outcome: the container is asked again, as a poll would. */
async function resumeClaimed(run: Run, containerId: string): Promise<void> {
  const resumed = await transition(run.deps.db, targetStates, run.target.id, 'resume');
  if (resumed) await processContainer({ ...run, target: resumed }, containerId);
}

/** One poll of the container; finished: publish it; already published (a repeated run): take its post. */
async function processContainer(run: Run, containerId: string, known?: ContainerStatus): Promise<void> {
  const { deps, adapter, credentials, target, platform } = run;
  const status = known ?? (await adapter.publishing.containerStatus(credentials, containerId));
  switch (status.state) {
    case 'in_progress': {
      await waitUntil(deps.db, target, retryAt(now(), POLLS, target.polls), {
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
      const found = await adapter.publishing.findPublished(credentials, containerId);
      if (found === null) {
        throw new PlatformError('transient', 'the container is published, but its post could not be found yet', {
          platform,
        });
      }
      // Where the platform publishes by itself, `published` is how every publication ends.
      if (!platformInfo(platform).publishing.containerPublishes) {
        deps.log.warn(
          { target_id: target.id, container_id: containerId },
          'the container was already published (a run repeated after a crash): took its post instead of publishing again',
        );
      }
      await markPublished(run, found);
      return;
    }
    case 'finished': {
      // Of two runs of one target, the one whose claim takes effect publishes.
      const claimed = await transition(deps.db, targetStates, target.id, 'claim');
      if (!claimed) return;
      await markPublished(
        { ...run, target: claimed },
        await adapter.publishing.publishContainer(credentials, containerId),
      );
      return;
    }
  }
}

/** Success: the target is published (even if cancelled meanwhile: what is on the platform wins) and post.published is sent. */
async function markPublished(run: Run, published: PublishedPost): Promise<void> {
  const { deps, adapter, target, post, platform } = run;
  const continues = adapter.publishing.afterPublish?.asked(platformOptions(post.platformOptions, platform)) === true;
  const at = now();
  const done = await deps.db.transaction(async (tx) => {
    await lockPost(tx, post.id);
    const row = await transition(tx, targetStates, target.id, continues ? 'publish_then_continue' : 'publish', {
      set: {
        platformPostId: published.id,
        permalink: published.permalink,
        publishedAt: at,
        waitingReason: null,
        error: null,
      },
    });
    if (!row) return false;
    await reportOutcome(tx, row, 'post.published', {
      permalink: published.permalink,
      published_at: at.toISOString(),
    });
    if (continues) await queuePublish(tx, target.id, at);
    return true;
  });
  if (done) {
    outcomesMetric.inc({ platform, outcome: 'published' });
    latenessMetric.observe({ platform }, Math.max(0, at.getTime() - post.scheduledAt.getTime()) / 1000);
  }
  deps.log.info({ target_id: target.id, post_id: post.id, platform, platform_post_id: published.id }, 'post published');
}

/** The adapter's after-publishing step: run at most once (marked before the call); its failure is recorded, the post stays published. */
async function runAfterPublish(run: Run): Promise<void> {
  const { deps, adapter, credentials, target, post, platform } = run;
  const options = platformOptions(post.platformOptions, platform);
  const step = adapter.publishing.afterPublish;
  if (step === undefined || !step.asked(options) || target.platformPostId === null) {
    await transition(deps.db, targetStates, target.id, 'end_after_publish', { from: ['after_publish'] });
    return;
  }
  if (!(await transition(deps.db, targetStates, target.id, 'run_after_publish'))) return;
  const { id } = await step.run(credentials, target.platformPostId, options);
  await transition(deps.db, targetStates, target.id, 'end_after_publish', {
    from: ['after_publish_running'],
    set: { firstCommentId: id },
  });
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
async function handleFailure(deps: PublishDeps, target: PostTarget, error: unknown, madeWith?: Date): Promise<void> {
  if (target.status === 'published') {
    // Only the after-publishing step was left; it is given up, the post stays published.
    if (!(error instanceof TargetFailure || error instanceof PlatformError)) throw error;
    deps.log.warn({ target_id: target.id, err: error.message }, 'the step after publishing could not be run');
    await transition(deps.db, targetStates, target.id, 'end_after_publish', {
      set: { firstCommentError: error.message },
    });
    return;
  }
  if (error instanceof TargetFailure) return await fail(deps, target, error.error);
  if (error instanceof PlatformError && error.kind === 'token_expired' && deps.accountReconnectGraceMs > 0) {
    // The platform says the account expired: the try waits for its reconnection, as one due
    // then would, in the state the failure left it in (a refused creation is back at `quota`).
    const current = (await loadTarget(deps.db, target.id))?.target;
    if (current === undefined) return;
    const waited = await awaitReconnection(deps, current, error, madeWith);
    if ('waiting' in waited) {
      deps.log.warn({ target_id: target.id, err: error.message }, 'the account expired; waiting for its reconnection');
      return;
    }
    if ('account' in waited && waited.account?.status === 'connected') {
      // Reconnected since the call was made with the old token: the step runs again now.
      await waitUntil(deps.db, current, now(), { waitingReason: null });
      return;
    }
  }
  const windowEnded = target.retryUntil !== null && now().getTime() > target.retryUntil.getTime();
  if (!(error instanceof PlatformError)) {
    // A bug or the database: graphile-worker runs the job again, until the window ends.
    deps.log.error({ target_id: target.id, err: error }, 'publishing step failed unexpectedly');
    if (!windowEnded) throw error;
    const message = `Publishing failed on an internal error: ${error instanceof Error ? error.message : String(error)}`;
    return await fail(deps, target, { code: 'internal_error', message, platform_code: null });
  }
  if (error.passing) {
    const next = retryAt(now(), RETRY, target.failures, error.detail.retryAfterSeconds);
    if (target.retryUntil !== null && next.getTime() <= target.retryUntil.getTime()) {
      // The state the failure left it in: a refused creation is back at `quota`.
      const current = (await loadTarget(deps.db, target.id))?.target;
      if (current === undefined) return;
      await waitUntil(deps.db, current, next, {
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
  await fail(deps, target, errorOf(error), error, madeWith);
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
  madeWith?: Date,
): Promise<void> {
  const done = await deps.db.transaction(async (tx) => {
    await lockPost(tx, target.postId);
    const row = await transition(tx, targetStates, target.id, 'fail', {
      set: { waitingReason: null, accountWaitUntil: null, error: targetError },
    });
    if (cause) await noteAccountFailure(tx, target.accountId, cause, madeWith);
    if (!row) return false;
    await reportOutcome(tx, row, 'post.failed', {
      error_code: targetError.code,
      error_message: targetError.message,
    });
    return true;
  });
  if (done) outcomesMetric.inc({ platform: target.platform, outcome: 'failed' });
  deps.log.warn({ target_id: target.id, error: targetError }, 'publishing failed');
}

/** The account an event names, when it is one whose waiting targets should go on now. */
function returnedAccountId(event: RecordedEvent): string | null {
  if (event.type !== 'account.connected' && event.type !== 'account.disconnected') return null;
  const { data } = JSON.parse(event.body) as { data?: { account?: { id?: unknown }; reconnected?: unknown } };
  if (event.type === 'account.connected' && data?.reconnected !== true) return null;
  const id = data?.account?.id;
  return typeof id === 'string' ? id : null;
}

/**
 * An account reconnected (`account.connected`, `reconnected: true`) or disconnected: its
 * targets waiting for a reconnection are queued now (each target's job key replaces its
 * waiting job), to go on publishing, or to fail at once rather than at the end of their grace
 * time. An events subscriber: run in the transaction of the account's change, so the jobs
 * exist exactly when the change does. It reads the targets without locking them: that
 * transaction holds the account's row, which a run about to wait takes first too
 * (awaitReconnection), so neither waits on the other in a circle.
 */
export async function queueTargetsOfReturnedAccounts(tx: Tx, events: readonly RecordedEvent[]): Promise<void> {
  const accountIds = [...new Set(events.map(returnedAccountId).filter((id) => id !== null))];
  if (accountIds.length === 0) return;
  const waiting = tx
    .select({ id: postTargets.id })
    .from(postTargets)
    .where(
      and(
        inArray(postTargets.accountId, accountIds),
        eq(postTargets.status, 'publishing'),
        isNotNull(postTargets.accountWaitUntil),
      ),
    );
  await tx.execute(sql`with moved as (${waiting}) ${queuePublishOfMoved(now())}`);
}
