/**
 * How a try of a target ends, or goes on after a failure. Success: the target is published and
 * `post.published` is sent. Failures: passing ones (`transient`, `rate_limited`) are retried
 * after RETRY's waits (never sooner than the platform asks), until PUBLISH_RETRY_WINDOW_SECONDS
 * after the try (or its container) started; the others fail the target at once (and
 * `post.failed` is sent), an ended token marking its account first. Other errors (a bug, the
 * database) are retried by graphile-worker within the same window, then fail the target with
 * `internal_error`.
 */
import { now } from '../../../clock.ts';
import type { Tx } from '../../../db/connection.ts';
import { retryAt, retryPolicy } from '../../../jobs/retry.ts';
import { transition } from '../../../jobs/workflow.ts';
import { sharedCounter, sharedHistogram } from '../../../metrics/shared.ts';
import { PlatformError, type PublishedPost, platformInfo } from '../../../platforms/index.ts';
import { noteAccountFailure } from '../../accounts/index.ts';
import { emit, type NewEvent } from '../../events/index.ts';
import { platformOptions } from '../options.ts';
import { lockPost, moveTargetOfPost, refreshPostStatus } from '../post-status.ts';
import type { Post, PostTarget, TargetError } from '../tables.ts';
import { type TargetState, targetStates } from '../target-workflow.ts';
import { awaitReconnection } from './account-wait.ts';
import {
  asHolder,
  awaitClaim,
  ClaimLost,
  claimHeld,
  HeldClaimFailure,
  notAgainstHeldClaim,
  watchClaim,
} from './claims.ts';
import { lastStep, nextStep } from './publish-jobs.ts';
import { loadTarget, type PublishDeps, type Run, waitUntil } from './run.ts';

/** Passing failures of a step: 30 s, doubling, at most 15 minutes. */
const RETRY = retryPolicy({ firstMs: 30_000, factor: 2, capMs: 15 * 60_000, jitter: 0.2 });

/**
 * A failure a target ends with. `from`: the only states it may end the target from, where the
 * failure is a doubt about one step (a creation whose outcome is unknown), so that another run
 * that settled the step meanwhile is not undone by it.
 */
export class TargetFailure extends Error {
  constructor(
    readonly error: TargetError,
    readonly from?: readonly TargetState[],
  ) {
    super(error.message);
  }
}

export function failure(code: string, message: string, platformCode: string | null = null): TargetFailure {
  return new TargetFailure({ code, message, platform_code: platformCode });
}

/**
 * A step whose outcome is unknown: it ends the target only from the states where that step is
 * still the last word (a creation while `creating`, a container's read while `processing`), never
 * one another run has settled or claimed since.
 */
export function outcomeInDoubt(message: string, from: readonly TargetState[]): TargetFailure {
  return new TargetFailure({ code: 'outcome_unknown', message, platform_code: null }, from);
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

/** Success: the target is published (even if cancelled meanwhile: what is on the platform wins) and post.published is sent. */
export async function markPublished(run: Run, published: PublishedPost): Promise<void> {
  const { deps, adapter, target, post, platform } = run;
  const continues = adapter.publishing.afterPublish?.asked(platformOptions(post.platformOptions, platform)) === true;
  const at = now();
  const step = continues ? nextStep(target.id, at) : lastStep(target.id);
  const moved = await moveTargetOfPost(deps.db, {
    target,
    name: continues ? 'publish_then_continue' : 'publish',
    options: {
      set: {
        platformPostId: published.id,
        permalink: published.permalink,
        publishedAt: at,
        waitingReason: null,
        claimedAt: null,
        // A published target keeps in `error` what the platform did otherwise than asked (its `warning`).
        error: published.warning === undefined ? null : { ...published.warning, platform_code: null },
      },
    },
    events: [
      outcomeEvent(post, target, 'post.published', {
        permalink: published.permalink,
        published_at: at.toISOString(),
        ...(published.warning === undefined ? {} : { warning: published.warning }),
      }),
    ],
    ...(step.effect === undefined ? {} : { effect: step.effect }),
  });
  if (moved !== null) {
    step.made();
    outcomesMetric.inc({ platform, outcome: 'published' });
    latenessMetric.observe({ platform }, Math.max(0, at.getTime() - post.scheduledAt.getTime()) / 1000);
  }
  deps.log.info({ target_id: target.id, post_id: post.id, platform, platform_post_id: published.id }, 'post published');
}

/** The event of a target's final outcome. */
function outcomeEvent(
  post: Pick<Post, 'id' | 'ownerId' | 'profileId'>,
  target: PostTarget,
  type: 'post.published' | 'post.failed',
  data: Record<string, unknown>,
): NewEvent {
  return {
    ownerId: post.ownerId,
    profileId: post.profileId,
    type,
    data: { post_id: post.id, target_id: target.id, account_id: target.accountId, platform: target.platform, ...data },
  };
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
export async function handleFailure(
  deps: PublishDeps,
  target: PostTarget,
  thrown: unknown,
  madeWith?: Date,
): Promise<void> {
  if (thrown instanceof ClaimLost) {
    deps.log.warn(
      { target_id: target.id, err: thrown.message },
      'a publish failed after its claim had passed to another run, which settles the target: this run leaves it',
    );
    return;
  }
  // The failure of the claim's holder, which may end the target it claimed; any other run's may not while a claim is held.
  const held = thrown instanceof HeldClaimFailure ? thrown.claimedAt : undefined;
  const error = thrown instanceof HeldClaimFailure ? thrown.error : thrown;
  if (target.status === 'published') {
    // Only the after-publishing step was left; it is given up, the post stays published.
    if (!(error instanceof TargetFailure || error instanceof PlatformError)) throw error;
    deps.log.warn({ target_id: target.id, err: error.message }, 'the step after publishing could not be run');
    await transition(deps.db, targetStates, target.id, 'end_after_publish', {
      set: { firstCommentError: error.message },
    });
    return;
  }
  if (error instanceof TargetFailure) return await fail(deps, target, error.error, { from: error.from, held });
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
    if (held !== undefined) return await fail(deps, target, publishInDoubt(target, error), { held });
    const message = `Publishing failed on an internal error: ${error instanceof Error ? error.message : String(error)}`;
    return await fail(deps, target, { code: 'internal_error', message, platform_code: null }, { held });
  }
  if (error.passing) {
    const next = retryAt(now(), RETRY, target.failures, error.detail.retryAfterSeconds);
    if (target.retryUntil !== null && next.getTime() <= target.retryUntil.getTime()) {
      // The state the failure left it in: a refused creation is back at `quota`.
      const current = (await loadTarget(deps.db, target.id))?.target;
      if (current === undefined) return;
      if (held === undefined && claimHeld(current)) {
        // Another run claimed the publish since this one read the target: its row and its next
        // look are that claim's, not this failure's.
        deps.log.info(
          { target_id: target.id, err: error.message },
          "a passing failure of a run beside the publish's claim was left to the claim's holder",
        );
        await awaitClaim(deps.db, current);
        return;
      }
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
  // A held claim's failure is in doubt only where it passes (a refusal not worth retrying is the
  // adapter's own answer, made before or without the platform's).
  const targetError = held !== undefined && error.passing ? publishInDoubt(target, error) : errorOf(error);
  await fail(deps, target, targetError, { cause: error, madeWith, held });
}

/**
 * A publish that may have made the post (unanswered, or a server error: its claim kept) when the
 * try's retry window leaves no retry: the container is not asked again, and the outcome is unknown.
 */
function publishInDoubt(target: PostTarget, error: unknown): TargetError {
  const { label } = platformInfo(target.platform);
  const reason = error instanceof Error ? error.message : String(error);
  return {
    code: 'outcome_unknown',
    message: `The publish got no outcome from ${label} (${reason}), which may have made the post, and the try's retry window leaves no retry. Check the account, or retry: a retry asks ${label} about the same container first and publishes it only if it was not.`,
    platform_code: null,
  };
}

/** A target's final outcome: its post's status follows, and the event says it (in the same transaction). */
async function reportOutcome(
  tx: Tx,
  target: PostTarget,
  type: 'post.published' | 'post.failed',
  data: Record<string, unknown>,
): Promise<void> {
  const post = await refreshPostStatus(tx, target.postId);
  await emit(tx, outcomeEvent(post, target, type, data));
}

async function fail(
  deps: PublishDeps,
  target: PostTarget,
  targetError: TargetError,
  {
    cause,
    madeWith,
    from,
    held,
  }: {
    cause?: PlatformError;
    madeWith?: Date;
    from?: readonly TargetState[] | undefined;
    held?: Date | undefined;
  } = {},
): Promise<void> {
  const done = await deps.db.transaction(async (tx) => {
    await lockPost(tx, target.postId);
    const row = await transition(tx, targetStates, target.id, 'fail', {
      ...(from === undefined ? {} : { from: [...from] }),
      when: held === undefined ? notAgainstHeldClaim() : asHolder(held),
      set: { waitingReason: null, accountWaitUntil: null, error: targetError, claimedAt: null },
    });
    if (cause) await noteAccountFailure(tx, target.accountId, cause, madeWith);
    if (!row) return false;
    await reportOutcome(tx, row, 'post.failed', {
      error_code: targetError.code,
      error_message: targetError.message,
    });
    return true;
  });
  if (!done) {
    deps.log.info(
      { target_id: target.id, error: targetError },
      'a failure of a step another run has settled or claimed since was dropped',
    );
    await watchClaim(deps.db, target.id);
    return;
  }
  outcomesMetric.inc({ platform: target.platform, outcome: 'failed' });
  deps.log.warn({ target_id: target.id, error: targetError }, 'publishing failed');
}
