/**
 * Publishing one target: its `publish_target` job runs once a step, each run doing one short
 * step and moving the job to the time the next is due, so no worker slot waits on a platform.
 * The states and every allowed move between them are in target-workflow.ts; in short:
 *
 *   scheduled  --(due)-->  quota: read the quota; spent -> wait and read again;
 *                          else create the container and record its id (before publishing);
 *                          a carousel's items first (Instagram, Threads) -> items: poll them
 *                          until each is finished, then create the carousel's container
 *              -->  processing: poll the container (a job per poll, as often and as long as
 *                          the platform allows; past that, failed with processing_timeout);
 *                          finished -> claimed -> publish -> published (+ post.published)
 *              -->  after_publish (a step the adapter declares: Instagram's first comment), then done.
 *
 * Never twice:
 * - every run of the processing step asks the container's state before publishing, so a run
 *   repeated after a crash between the platform's answer and our commit finds the container
 *   `published` and takes the post it became (adapter.findPublished);
 * - a publish is claimed first (processing -> claimed, a conditional update), so two runs of
 *   one target (a job unlocked while its worker still ran) cannot both publish; the claim is its
 *   run's for a lease (claims.ts), in which no other run moves or ends the target, and a claim
 *   left by a run that died is taken back to asking the container once it has passed;
 * - a new try (POST .../retry) of a target that has a container asks that container first
 *   (step `recheck`): one published meanwhile is taken, not published again;
 * - where creating the container is itself the publication (TikTok's video/init), the
 *   creation is recorded (step `creating`) before the call: a run that finds it unfinished,
 *   or a creation whose answer was lost, never creates again; where the platform's reads can
 *   tell what it made (X), what it shows is recorded, else the try ends `outcome_unknown`. Such
 *   a doubt ends the target only while it is still `creating`, never one another run settled.
 *
 * The job itself is here: it starts a due target (the start, and the read that makes a first
 * try's, are in start.ts), and each run takes the step of the state it finds the target in
 * (STEPS). The steps are in steps.ts, how a try ends or goes on after a
 * failure in outcomes.ts, the wait for an expired account's reconnection in account-wait.ts.
 */
import { now } from '../../../clock.ts';
import { transition } from '../../../jobs/workflow.ts';
import { type Platform, type PlatformAdapter, PlatformError, platformInfo } from '../../../platforms/index.ts';
import { accountById, actAsAccount, noteAccountFailure } from '../../accounts/index.ts';
import { moveTargetIfPostAt, refreshPostStatus } from '../post-status.ts';
import type { Post, PostTarget } from '../tables.ts';
import { type TargetState, targetStates } from '../target-workflow.ts';
import { ACCOUNT_WAIT_STATES, awaitReconnection } from './account-wait.ts';
import { startOf } from './ahead.ts';
import { failure, handleFailure, type TargetFailure } from './outcomes.ts';
import { queuePublish } from './publish-jobs.ts';
import { type Loaded, loadTarget, type PublishDeps, type Run, stateOf, targetAndPost, waitUntil } from './run.ts';
import { loadStarting, startMove } from './start.ts';
import {
  createContainer,
  interruptedCreation,
  markWithdrawn,
  processContainer,
  processItems,
  recheckContainer,
  recoverCreation,
  resumeClaimed,
  runAfterPublish,
  withdrawUpload,
} from './steps.ts';

/** A cancelled upload whose account is not connected is tried again this often. */
const WITHDRAW_ACCOUNT_RECHECK_MS = 10 * 60_000;

/**
 * Starts a due `scheduled` target (a new try) and answers it, or one already started; a
 * target not due yet is queued for its time, one done or gone is left: null then.
 */
async function begin(deps: PublishDeps, targetId: string, seenStarted: boolean): Promise<Loaded | null> {
  // One job per target at a time (its job key), and every change a conditional transition:
  // reading a target already started needs no lock; starting one takes its post's lock. A first
  // try due now is started by the read itself; a target the job's last run found started is read
  // without the start's parts, which PostgreSQL would set up and lock at each call, run or not (a
  // target retried since is started below, as one the read did not start).
  const read = seenStarted
    ? await loadTarget(deps.db, targetId).then((loaded) => loaded && { ...loaded, started: false })
    : await loadStarting(deps, targetId);
  if (read === null) return null;
  const { started, ...seen } = read;
  if (started) return seen;
  const state = stateOf(seen.target);
  if (state !== undefined && STEPS[state] !== null) return seen;
  if (state !== 'scheduled') return null;
  if (isDue(seen)) {
    // Started in one statement while the post's time is as read; else as below, under its lock.
    const moved = await moveTargetIfPostAt(deps.db, startMove(deps, seen.target), seen.post.scheduledAt);
    if (moved !== null) return { ...seen, target: moved };
  }
  return await deps.db.transaction(async (tx) => {
    const locked = await targetAndPost(tx, targetId, { lockPost: true });
    if (locked?.target.status !== 'scheduled') return null;
    if (!isDue(locked)) {
      // Not a transition: read again under the lock, so a target an edit replaced meanwhile gets no job.
      if ((await targetAndPost(tx, targetId))?.target.status === 'scheduled') {
        await queuePublish(tx, targetId, startOf(locked.post, locked.target.platform));
      }
      return null;
    }
    const move = startMove(deps, locked.target);
    const started = await transition(tx, targetStates, targetId, move.name, move.options);
    if (started === null) return null;
    await refreshPostStatus(tx, locked.post.id);
    return { ...locked, target: started, account: await accountById(tx, started.accountId) };
  });
}

/** Whether a scheduled target is due: at its post's time, or the platform's lead before it for an upload it publishes then. */
function isDue({ target, post }: Pick<Loaded, 'target' | 'post'>): boolean {
  return startOf(post, target.platform).getTime() <= now().getTime();
}

/**
 * What a `publish_target` job does with a target, by the state it finds it in: nothing (null:
 * not started, which `begin` starts when it is due, or done); end the try, for a step whose run
 * died while it ran (`interrupted`: whether it acted is unknown, and running it again could act
 * twice); or run a step, which calls the platform as the account once it is connected.
 */
type Step =
  | null
  | {
      readonly interrupted: (platform: Platform) => TargetFailure;
      /** Where the adapter can tell what the interrupted step did (`findCreated`): run instead. */
      readonly recover?: {
        readonly can: (adapter: PlatformAdapter) => boolean;
        readonly run: (run: Run) => Promise<void>;
      };
    }
  | { readonly run: (run: Run) => Promise<void> };

/** Every state's step: a state the workflow gains has no step until one is written here. */
const STEPS: { readonly [S in TargetState]: Step } = {
  draft: null,
  awaiting_approval: null,
  scheduled: null,
  quota: { run: createContainer },
  items: { run: processItems },
  creating: {
    interrupted: interruptedCreation,
    recover: { can: (adapter) => adapter.publishing.findCreated !== undefined, run: recoverCreation },
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
  withdrawing: { run: withdrawUpload },
};

/** Whether the platform's adapter, if this service can still build it, can tell what an interrupted step did. */
function canRecover(deps: PublishDeps, platform: Platform, can: (adapter: PlatformAdapter) => boolean): boolean {
  try {
    return can(deps.platforms.adapter(platform));
  } catch {
    // No app for the platform any more: the step's doubt stands, as the interrupted failure says.
    return false;
  }
}

/** A step on the target's container; a target in its state without one makes one, as from `quota`. */
function onContainer(step: (run: Run, containerId: string) => Promise<void>): (run: Run) => Promise<void> {
  return async (run) =>
    run.target.containerId === null ? await createContainer(run) : await step(run, run.target.containerId);
}

/**
 * Runs the next step of one target's publication (the `publish_target` job); `seenStarted`: the
 * job's last run found the target started (its payload's hint).
 */
export async function publishTarget(deps: PublishDeps, targetId: string, seenStarted = false): Promise<void> {
  const loaded = await begin(deps, targetId, seenStarted);
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
    let act: (run: Run) => Promise<void>;
    if ('run' in step) act = step.run;
    else {
      // Asked of a connected account only: one that is not cannot be read, and the step's doubt stands.
      const recover = step.recover;
      if (recover === undefined || loaded.account?.status !== 'connected' || !canRecover(deps, platform, recover.can)) {
        throw step.interrupted(platform);
      }
      act = recover.run;
    }
    let { account } = loaded;
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
    if (account?.status !== 'connected' && state === 'withdrawing') {
      await awaitAccountForWithdrawal(deps, target, post, account?.status ?? 'gone');
      return;
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
    madeWith = account.connectedAt;
    const running = target;
    // A step refused for an ended token runs once more after a refresh: a refused call had no effect.
    await actAsAccount({ db: deps.db, secretKey: deps.secretKey, platforms: deps.platforms }, account, (credentials) =>
      act({ deps, adapter, credentials, target: running, post, platform }),
    );
  } catch (error) {
    if (state === 'withdrawing' && error instanceof PlatformError && error.kind === 'token_expired') {
      // Refused after the shared refresh: the account is expired, as any refused call marks
      // it, and the removal waits for it as above (not as a publication does, until its grace ends).
      const refused = error;
      await deps.db.transaction((tx) => noteAccountFailure(tx, target.accountId, refused, madeWith));
      await awaitAccountForWithdrawal(deps, target, post, 'expired');
      return;
    }
    await handleFailure(deps, target, error, madeWith);
  }
}

/**
 * A cancelled upload made ahead can only be removed as its account: tried again until it is
 * reconnected (the platform publishes the upload at the post's time meanwhile).
 */
async function awaitAccountForWithdrawal(deps: PublishDeps, target: PostTarget, post: Post, status: string) {
  const { label } = platformInfo(target.platform);
  if (now().getTime() >= post.scheduledAt.getTime()) {
    // Its time has passed without the account: the platform has published it; nothing is left to try.
    deps.log.warn(
      { target_id: target.id, platform: target.platform, container_id: target.containerId, account_status: status },
      "a cancelled post's upload made ahead was not removed before its time: its account was not connected",
    );
    await markWithdrawn({ deps, target });
    return;
  }
  const next = new Date(now().getTime() + WITHDRAW_ACCOUNT_RECHECK_MS);
  await waitUntil(deps.db, target, next, {
    waitingReason: `Removing the upload from ${label} needs account ${target.accountId}, which is ${status}: reconnect it before ${post.scheduledAt.toISOString()}, or ${label} publishes the video then. Trying again at ${next.toISOString()}.`,
  });
}
