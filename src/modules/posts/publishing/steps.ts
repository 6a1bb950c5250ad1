/**
 * The steps of a target's publication, each run by one `publish_target` job and each ending by
 * queueing the next (or with the try's outcome): reading the quota and making the container (a
 * carousel's items first, polled until each is finished), polling it and publishing it once, asking an earlier try's container first, and the step an
 * adapter declares for after publishing.
 */
import { and, eq, inArray, ne, or } from 'drizzle-orm';
import { now } from '../../../clock.ts';
import { transition } from '../../../jobs/workflow.ts';
import {
  type ContainerContext,
  type ContainerStatus,
  type DailyUploads,
  type Platform,
  PlatformError,
  type ProcessingRules,
  type PublishedPost,
  type PublishRequest,
  platformInfo,
  pollWaitMs,
  type RequestMedium,
} from '../../../platforms/index.ts';
import { findMedia, type MediaItem, mediaFetchUrl } from '../../media/index.ts';
import { optionMediaRefs, platformOptions, targetText } from '../options.ts';
import { postTargets } from '../tables.ts';
import { type TargetState, targetStates } from '../target-workflow.ts';
import { aheadPlan, waitsForItsTime } from './ahead.ts';
import {
  asHolder,
  awaitClaim,
  ClaimLost,
  claimHeld,
  HeldClaimFailure,
  mayHaveActed,
  notAgainstHeldClaim,
  renewClaim,
  watchClaim,
} from './claims.ts';
import { failure, markPublished, outcomeInDoubt, type TargetFailure } from './outcomes.ts';
import { giveBack, markSpent, takeUpload, type UploadRefusal } from './project-uploads.ts';
import { queuePublish, transitionThenStep } from './publish-jobs.ts';
import { loadTarget, type Run, stateOf, waitUntil } from './run.ts';

/** A spent quota is read again this often (platforms do not say when it frees). */
const QUOTA_RECHECK_MS = 10 * 60_000;
/**
 * A container the platform processes is first read this long after it was made (the service's
 * own choice: a platform fetches and processes for seconds at least). Every later read waits as
 * the platform's processing rules say (its definition's `publishing.processing`).
 */
const FIRST_READ_MS = 2_000;

/** The platform's processing rules: how often, and how long, its containers are polled. */
function processingOf(platform: Platform): ProcessingRules | null {
  return platformInfo(platform).publishing.processing;
}

/**
 * When the read after the `polls`-th one that found the container still processing is due. No
 * jitter: the wait is the platform's processing time, and a read before it is over only costs a
 * call and a job.
 */
function nextRead(rules: ProcessingRules, polls: number): Date {
  return new Date(now().getTime() + pollWaitMs(rules, polls));
}

/** Whether a wait that began `since` has lasted its bound, `limitSeconds`. */
function boundPassed(since: Date, limitSeconds: number): boolean {
  return now().getTime() >= since.getTime() + limitSeconds * 1000;
}

/** When the target's wait on the platform began (a target from before it was recorded: its last step). */
function processingStart(run: Run): Date {
  return run.target.processingSince ?? run.target.updatedAt;
}

/** A bound in words: `5 minutes`, `an hour`, `6 hours`. */
function spanOf(seconds: number): string {
  const [amount, unit] = seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : [Math.round(seconds / 60), 'minute'];
  return amount === 1 ? `${unit === 'hour' ? 'an' : 'a'} ${unit}` : `${amount} ${unit}s`;
}

/**
 * A container (or a carousel's item: `what`) still processing: its next read is queued as the
 * platform's rules say, or, once their bound has passed since it was made, the try ends with
 * `processing_timeout` instead of polling on until the container expires. Reads stay as far
 * apart as the platform asks, so the last one comes at most one wait after the bound.
 */
async function awaitProcessing(
  run: Run,
  what: string,
  waitingReason: string,
  { item = false, checkAfterSeconds = 0 }: { item?: boolean; checkAfterSeconds?: number | undefined } = {},
): Promise<void> {
  const { deps, target, platform } = run;
  const rules = processingOf(platform);
  const label = platformInfo(platform).label;
  if (rules === null) {
    throw failure('processing_timeout', `${label} answered that ${what} is still processing, which it never does.`);
  }
  if (boundPassed(processingStart(run), rules.limitSeconds)) {
    const span = spanOf(rules.limitSeconds);
    throw failure(
      'processing_timeout',
      item && platformInfo(platform).publishing.containerPublishes
        ? `${label} was still processing ${what} ${span} after it was uploaded, the longest the service waits; nothing was posted: retry to upload it again.`
        : platformInfo(platform).publishing.containerPublishes
          ? `${label} was still processing ${what} ${span} after it was sent, the longest the service waits; ${label} may still publish it by itself: check the account before retrying (a retry asks ${label} about the same post first).`
          : `${label} was still processing ${what} ${span} after its container was made, the longest ${label} asks to be polled for; retry to make a new one.`,
    );
  }
  // Never sooner than the platform asked (X's check_after_secs), nor than its rules say.
  const next = new Date(Math.max(nextRead(rules, target.polls).getTime(), now().getTime() + checkAfterSeconds * 1000));
  await waitUntil(deps.db, target, next, { polls: target.polls + 1, waitingReason });
}

/** Reads the quota; spent: waits for it. Else makes the container and records it before anything else. */
export async function createContainer(run: Run): Promise<void> {
  const { deps, adapter, credentials, target } = run;
  // The media are read while the platform answers the quota: a job holds its slot for both, and
  // the read does not depend on the answer. Its failure is met where it is awaited, or not at all
  // when the step waits instead.
  const media = postMedia(run);
  media.catch(() => {});
  const quota = await adapter.publishing.publishingQuota(credentials);
  if (quota !== null && quota.used >= quota.limit) {
    const next = new Date(now().getTime() + QUOTA_RECHECK_MS);
    await waitUntil(deps.db, target, next, {
      waitingReason: `The account's publishing quota is spent (${quota.used} of ${quota.limit} posts in ${quota.windowSeconds / 3600} hours); checking again at ${next.toISOString()}.`,
    });
    return;
  }
  const plan = aheadPlan(run.post, run.platform, now());
  if (plan !== null && 'waitUntil' in plan) {
    // Started too near its time to hand the platform a time still ahead: uploaded at its time.
    await waitUntil(deps.db, target, plan.waitUntil, {
      waitingReason: `Too near its time to be published ahead by ${platformInfo(run.platform).label}; uploading it at ${plan.waitUntil.toISOString()}.`,
    });
    return;
  }
  const request = await publishRequest(run, plan?.publishAt, await media);
  const uploads = adapter.publishing.dailyUploads;
  const refused = uploads === undefined ? null : await takeUpload(deps.db, run.platform, uploads, now());
  if (uploads !== undefined && refused !== null) {
    await waitForProjectDay(run, uploads, refused);
    return;
  }
  const items = (await adapter.publishing.createCarouselItems?.(credentials, request)) ?? null;
  if (items !== null) {
    await recordItems(run, items);
    return;
  }
  await makeContainer(run, request, undefined);
}

/**
 * Why a target waits for its project's new day: the day's uploads or quota units are spent
 * before its upload, or its upload is on the platform and the read of it was refused.
 */
type DayWait = UploadRefusal | 'uploaded';

/**
 * The target waits until the project's day renews, saying why. An upload already on the
 * platform has its bound on processing and its window of retries moved by the wait, rather than
 * failing a post the platform goes on to publish.
 */
async function waitForProjectDay(run: Run, uploads: DailyUploads, why: DayWait): Promise<void> {
  const { deps, target, platform } = run;
  const next = uploads.renewsAt(now());
  const label = platformInfo(platform).label;
  const renews = next.toISOString();
  const reasons: Record<DayWait, { waiting: string; log: string }> = {
    uploads: {
      waiting: `The ${label} uploads of the service's project for today are spent (${uploads.limit} a day); waiting until they renew at ${renews}.`,
      log: 'daily uploads of the project spent; the target waits until they renew',
    },
    closed: {
      waiting: `${label} answered that the service's project has spent its quota for today; waiting until it renews at ${renews}.`,
      log: "the platform closed the project's day; the target waits until it renews",
    },
    units: {
      waiting: `The ${label} quota units of the service's project for today are spent (${uploads.unitLimit} a day, reads and publishing together); waiting until they renew at ${renews}.`,
      log: 'daily quota units of the project spent; the target waits until they renew',
    },
    uploaded: {
      waiting: `Uploaded to ${label}; the quota units of the service's project for today are spent, so it is read again when they renew at ${renews}.`,
      log: "the project's daily quota is spent; the uploaded post is read again when it renews",
    },
  };
  const wait = next.getTime() - now().getTime();
  await waitUntil(deps.db, target, next, {
    waitingReason: reasons[why].waiting,
    ...(why === 'uploaded'
      ? {
          processingSince: new Date(processingStart(run).getTime() + wait),
          retryUntil: new Date(next.getTime() + deps.publishRetryWindowMs),
        }
      : {}),
  });
  deps.log.info({ targetId: target.id, platform, project: uploads.project, until: renews }, reasons[why].log);
}

/**
 * Makes the target's container (a carousel's, of its finished items) and records it; where
 * making it publishes, the creation is recorded before the call, and a passing failure of it
 * is never made again: what the platform shows it made is recorded where the adapter can tell
 * (`findCreated`), else the try ends with `outcome_unknown`.
 */
async function makeContainer(run: Run, request: PublishRequest, items: readonly string[] | undefined): Promise<void> {
  const { deps, adapter, credentials, target, platform } = run;
  const publishes = platformInfo(platform).publishing.containerPublishes;
  const uploads = adapter.publishing.dailyUploads;
  const startedAt = now();
  // The creation's start is kept (processingSince) for a run that finds it interrupted to ask
  // the platform what it made since.
  if (
    publishes &&
    !(await transition(deps.db, targetStates, target.id, 'create', { set: { processingSince: startedAt } }))
  ) {
    // Another run made it, or the target was cancelled: the upload taken for this one is not spent.
    if (uploads !== undefined && items === undefined) await giveBack(deps.db, platform, uploads, now());
    return;
  }
  let containerId: string;
  try {
    ({ containerId } = await adapter.publishing.createContainer(credentials, request, items));
  } catch (error) {
    if (uploads?.spentBy(error)) {
      // The platform says the project's day is spent: this target waits for the next day too,
      // as those that find it spent before calling do (nothing was uploaded).
      await markSpent(deps.db, platform, uploads, now());
      if (publishes) await transition(deps.db, targetStates, target.id, 'creation_refused');
      await waitForProjectDay(run, uploads, 'closed');
      return;
    }
    if (uploads !== undefined && error instanceof PlatformError && error.kind === 'token_expired') {
      await giveBack(deps.db, platform, uploads, now());
    }
    if (!publishes) throw error;
    // A passing failure may have reached the platform, which would then publish by itself: what
    // the platform shows made since is the post, and nothing shown ends the try without a second.
    if (!(error instanceof PlatformError) || error.kind === 'transient') {
      const found = await createdSince(run, request, items ?? [], startedAt, { lapsedToken: 'unknown' });
      if (found === null) {
        throw outcomeInDoubt(
          `${platformInfo(platform).label} may or may not have received the post (${error instanceof Error ? error.message : String(error)}); check the account, then retry the post if it is not there.`,
          ['creating'],
        );
      }
      containerId = found;
    } else {
      // A refusal: nothing was received, and the step may be tried again.
      await transition(deps.db, targetStates, target.id, 'creation_refused');
      throw error;
    }
  }
  await recordContainer(run, containerId, items);
}

/** The failure of a creation that may have published, where the platform does not show it. */
export function interruptedCreation(platform: Platform): TargetFailure {
  const { label } = platformInfo(platform);
  return outcomeInDoubt(
    `Creating the post on ${label} was interrupted, and ${label} publishes what it received by itself; check the account, then retry the post if it is not there.`,
    ['creating'],
  );
}

/**
 * The container of what an unsettled creation made, where the adapter can find it among the
 * account's posts since `since`; null when it cannot tell, the platform shows nothing yet, or
 * what it shows is another target's post already (a post of the same text: never two targets
 * for one post). `lapsedToken: 'refresh'` lets a refused token through, for the shared refresh
 * to run the read again with a new one; `'unknown'` reads it as any failed read.
 */
async function createdSince(
  run: Run,
  request: PublishRequest,
  items: readonly string[],
  since: Date,
  { lapsedToken }: { lapsedToken: 'refresh' | 'unknown' },
): Promise<string | null> {
  const { deps, adapter, credentials, target, platform } = run;
  const find = adapter.publishing.findCreated;
  if (find === undefined) return null;
  try {
    const shown = await find(credentials, request, items, since);
    const found = shown !== null && !(await isAnotherTargets(run, shown)) ? shown : null;
    deps.log.info(
      { targetId: target.id, platform, containerId: shown?.containerId ?? null },
      found !== null
        ? 'a creation whose outcome was unknown is shown by the platform; recorded as made'
        : shown !== null
          ? "the post the platform shows for a creation whose outcome is unknown is another target's; the try ends outcome_unknown, nothing sent again"
          : 'a creation whose outcome is unknown is not shown by the platform; the try ends outcome_unknown, nothing sent again',
    );
    return found?.containerId ?? null;
  } catch (error) {
    if (lapsedToken === 'refresh' && error instanceof PlatformError && error.kind === 'token_expired') throw error;
    deps.log.warn(
      { targetId: target.id, platform, err: error instanceof Error ? error.message : String(error) },
      'reading back a creation whose outcome is unknown failed; the try ends outcome_unknown, nothing sent again',
    );
    return null;
  }
}

/**
 * A run found the target's creation interrupted (its run stopped during the call): the post the
 * platform shows made since the creation began is recorded as the container; none shown ends
 * the try `outcome_unknown`, never a second creation.
 */
export async function recoverCreation(run: Run): Promise<void> {
  const { target, platform } = run;
  const items = target.itemContainerIds ?? undefined;
  const since = target.processingSince ?? target.updatedAt;
  const found = await createdSince(run, await publishRequest(run), items ?? [], since, { lapsedToken: 'refresh' });
  if (found === null) throw interruptedCreation(platform);
  await recordContainer(run, found, items);
}

/** Whether the post a platform shows is already another target's of the account (its post, or its container). */
async function isAnotherTargets(run: Run, shown: { containerId: string; postId: string }): Promise<boolean> {
  const { deps, target } = run;
  const [other] = await deps.db
    .select({ id: postTargets.id })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.accountId, target.accountId),
        ne(postTargets.id, target.id),
        or(
          eq(postTargets.platformPostId, shown.postId),
          inArray(postTargets.containerId, [shown.containerId, shown.postId]),
        ),
      ),
    )
    .limit(1);
  return other !== undefined;
}

/** Records a made container, and queues its first read (or reads it now, where nothing is processed). */
async function recordContainer(run: Run, containerId: string, items: readonly string[] | undefined): Promise<void> {
  const { deps, target, platform } = run;
  const publishes = platformInfo(platform).publishing.containerPublishes;
  const at = now();
  const recorded = {
    containerId,
    itemContainerIds: null,
    polls: 0,
    processingSince: at,
    // Passing failures get a full window from here, however long the quota was waited for
    // (a carousel's window began with its items).
    ...(items === undefined ? { failures: 0, retryUntil: new Date(at.getTime() + deps.publishRetryWindowMs) } : {}),
    waitingReason: `Processing on ${platformInfo(platform).label}.`,
  };
  const from: TargetState = publishes ? 'creating' : items === undefined ? 'quota' : 'items';
  const rules = processingOf(platform);
  if (rules !== null && rules.itemsOnly !== true) {
    // The platform processes what it received, for seconds at least (Threads asks to wait
    // before publishing even a text): the first read is due then, queued with the container's
    // record. Read at once, a container still processing would cost a whole wait where the
    // platform asks for reads a minute apart.
    await transitionThenStep(
      deps.db,
      target,
      'container_made',
      { from: [from], set: recorded },
      new Date(at.getTime() + FIRST_READ_MS),
    );
    return;
  }
  // Nothing to process (a Facebook feed post): the container is asked about now.
  const saved = await transition(deps.db, targetStates, target.id, 'container_made', { from: [from], set: recorded });
  if (saved) await processContainer({ ...run, target: saved }, containerId);
}

/** A carousel's item containers (or a post's uploaded media) are recorded, and their first poll is queued for when media has had time to process. */
async function recordItems(run: Run, itemContainerIds: string[]): Promise<void> {
  const { deps, target, platform } = run;
  const at = now();
  await transitionThenStep(
    deps.db,
    target,
    'items_made',
    {
      from: ['quota'],
      set: {
        itemContainerIds,
        polls: 0,
        processingSince: at,
        failures: 0,
        retryUntil: new Date(at.getTime() + deps.publishRetryWindowMs),
        waitingReason:
          itemContainerIds.length === 1
            ? `Processing the post's medium on ${platformInfo(platform).label}.`
            : `Processing the carousel's ${itemContainerIds.length} items on ${platformInfo(platform).label}.`,
      },
    },
    new Date(at.getTime() + FIRST_READ_MS),
  );
}

/**
 * One poll of a carousel's item containers, in order, up to the first not finished: the
 * platforms make a carousel's container only of finished items. One failed or expired fails
 * the target; each finished, the carousel's container is made and polled in turn.
 */
export async function processItems(run: Run): Promise<void> {
  const { adapter, credentials, target, platform } = run;
  const items = target.itemContainerIds ?? [];
  const label = platformInfo(platform).label;
  for (const [index, itemId] of items.entries()) {
    const status = await adapter.publishing.containerStatus(credentials, itemId);
    // A carousel's items, or a post's media uploaded before it (LinkedIn).
    const item = items.length === 1 ? "the post's medium" : `item ${index + 1} of ${items.length} of the carousel`;
    switch (status.state) {
      case 'finished':
        continue;
      case 'in_progress':
        await awaitProcessing(run, item, `Processing ${item} on ${label}.`, {
          item: true,
          checkAfterSeconds: status.checkAfterSeconds,
        });
        return;
      case 'expired':
        throw failure(
          'container_expired',
          `${label} let ${item} expire before the post was made${status.message ? `: ${status.message}` : ''}.`,
        );
      case 'failed':
      case 'published':
      case 'awaiting_permalink':
        throw failure(
          'container_failed',
          `${label} could not process ${item}: ${status.message ?? (status.state === 'failed' ? 'no reason given' : 'it was published on its own')}.`,
        );
    }
  }
  await makeContainer(run, await publishRequest(run), items);
}

/** The post's media, its options' among them, by id; a medium deleted since is a failure of the try. */
async function postMedia({ deps, post, platform }: Run): Promise<ReadonlyMap<string, MediaItem>> {
  const refs = optionMediaRefs(post.platformOptions, platform);
  const ids = [...post.mediaIds, ...refs.map((r) => r.mediaId)];
  const byId = new Map((await findMedia(deps.db, post.ownerId, ids)).map((m) => [m.id, m]));
  if (ids.some((id) => !byId.has(id))) {
    throw failure('media_unavailable', 'A medium of the post was deleted before it was published.');
  }
  return byId;
}

/**
 * What the platform is asked to publish: the target's text and options, the media at URLs it
 * can fetch, and the post's time where the platform publishes the upload by itself then.
 */
async function publishRequest(
  run: Run,
  publishAt?: Date,
  media?: ReadonlyMap<string, MediaItem>,
): Promise<PublishRequest> {
  const { deps, post, platform } = run;
  const options = post.platformOptions;
  const refs = optionMediaRefs(options, platform);
  const byId = media ?? (await postMedia(run));
  const accepted = platformInfo(platform).publishing.imageTypes;
  const requested = async (item: MediaItem): Promise<RequestMedium> => {
    const convert = item.type === 'image' && !accepted.includes(item.mimeType);
    return {
      type: item.type,
      url: await mediaFetchUrl(deps.media, item, convert ? { format: 'jpeg' } : {}),
      // Some rules on a video's length are known only now (TikTok's, per account).
      durationSeconds: item.durationSeconds,
      // The bytes the URL serves: the file's own, unless converted.
      sizeBytes: convert ? null : item.sizeBytes,
      width: item.width,
      height: item.height,
    };
  };
  const items: RequestMedium[] = [];
  for (const id of post.mediaIds) items.push(await requested(byId.get(id) as MediaItem));
  const optionMedia: Record<string, RequestMedium> = {};
  for (const { mediaId } of refs) optionMedia[mediaId] ??= await requested(byId.get(mediaId) as MediaItem);
  const text = targetText(post.text, options, platform);
  return {
    ...(text === undefined ? {} : { text }),
    media: items,
    ...(refs.length === 0 ? {} : { optionMedia }),
    options: platformOptions(options, platform),
    ...(publishAt === undefined ? {} : { publishAt: publishAt.toISOString() }),
  };
}

/**
 * A new try of a target whose earlier try made a container: published meanwhile, it is
 * taken; still usable, it is polled and published; failed or expired, or still processing past
 * the platform's bound on polling it, a new one is made. Where the container publishes by
 * itself, no new one can be made: the new try waits for it anew, with a bound of its own.
 */
export async function recheckContainer(run: Run, containerId: string): Promise<void> {
  const { deps, adapter, credentials, target, platform } = run;
  const status = await adapter.publishing.containerStatus(credentials, containerId, expectedOf(run));
  const rules = processingOf(platform);
  const publishes = platformInfo(platform).publishing.containerPublishes;
  const overdue =
    status.state === 'in_progress' && (rules === null || boundPassed(processingStart(run), rules.limitSeconds));
  if (status.state === 'failed' || status.state === 'expired' || (overdue && !publishes)) {
    const fresh = await transition(deps.db, targetStates, target.id, 'container_unusable', {
      set: { containerId: null },
    });
    if (fresh) await createContainer({ ...run, target: fresh });
    return;
  }
  const usable = await transition(deps.db, targetStates, target.id, 'container_usable', {
    set: publishes ? { processingSince: now() } : {},
  });
  if (usable) await processContainer({ ...run, target: usable }, containerId, status);
}

/**
 * A claimed publish whose holder ended without an outcome (its claim's lease has passed): the
 * container is asked again, as a poll would. A claim still held is looked at again when its lease ends.
 */
export async function resumeClaimed(run: Run, containerId: string): Promise<void> {
  const { deps, target } = run;
  if (claimHeld(target)) {
    await awaitClaim(deps.db, target);
    return;
  }
  // Only while no run holds it: another may have resumed and claimed it again since it was read.
  const resumed = await transition(deps.db, targetStates, target.id, 'resume', {
    set: { claimedAt: null },
    when: notAgainstHeldClaim(),
  });
  if (resumed) await processContainer({ ...run, target: resumed }, containerId);
  else await watchClaim(deps.db, target.id);
}

/** The post a published container became, as the platform finds it. */
async function publishedPostOf(run: Run, containerId: string): Promise<PublishedPost> {
  const { adapter, credentials, platform } = run;
  const found = await adapter.publishing.findPublished(credentials, containerId);
  if (found === null) {
    throw new PlatformError('transient', 'the container is published, but its post could not be found yet', {
      platform,
    });
  }
  if ('unfindable' in found) {
    // Published, but not to be found: nothing is sent again (a retry asks this container
    // first), and the user is told to look on the account.
    const { label } = platformInfo(platform);
    // The container is read while processing: a run that claimed and published it since has its post's id.
    throw outcomeInDoubt(
      `${label} says the post was published, but ${found.unfindable}; check the account. A retry asks ${label} about the same container and does not publish it again.`,
      ['processing'],
    );
  }
  return found;
}

/**
 * What the post is now, for a read of its container: its time while it is to come, for an upload
 * made ahead (a post moved after its upload is moved on the platform at that read); and its media
 * at URLs signed at that moment, for an adapter that sends bytes again (a resumed upload).
 */
function expectedOf(run: Run): ContainerContext {
  return {
    ...(waitsForItsTime(run.post, run.platform, now()) ? { publishAt: run.post.scheduledAt.toISOString() } : {}),
    mediaUrls: async () => (await publishRequest(run)).media.map((item) => item.url),
  };
}

/** One poll of the container; finished: publish it; already published (a repeated run): take its post. */
export async function processContainer(run: Run, containerId: string, known?: ContainerStatus): Promise<void> {
  const { deps, adapter, credentials, target, platform } = run;
  let status = known;
  if (status === undefined) {
    try {
      status = await adapter.publishing.containerStatus(credentials, containerId, expectedOf(run));
    } catch (error) {
      const uploads = adapter.publishing.dailyUploads;
      if (uploads?.spentBy(error)) return await waitForProjectDay(run, uploads, 'uploaded');
      throw error;
    }
  }
  switch (status.state) {
    case 'in_progress': {
      const publishesAt = status.publishesAt === undefined ? null : new Date(status.publishesAt);
      if (publishesAt !== null && publishesAt.getTime() > now().getTime()) {
        // Uploaded ahead: the platform publishes it at the post's time, when it is read again
        // (then as often as processing is, from the first wait).
        await waitUntil(deps.db, target, publishesAt, {
          polls: 0,
          // The platform's processing bound counts from the time it publishes it, not the upload:
          // a post moved hours later is not timed out at its time.
          processingSince: publishesAt,
          waitingReason:
            status.message ??
            `Uploaded to ${platformInfo(platform).label}; it publishes it at ${publishesAt.toISOString()}.`,
        });
      } else {
        await awaitProcessing(run, 'the post', status.message ?? `Processing on ${platformInfo(platform).label}.`, {
          checkAfterSeconds: status.checkAfterSeconds,
        });
      }
      // Cancelled while this run was reading (or sending) it, the wait above then finding it
      // withdrawing: the upload it may have finished is removed now, not at the removal's next look.
      const current = adapter.publishing.withdraw && (await loadTarget(deps.db, target.id))?.target;
      if (current && stateOf(current) === 'withdrawing') {
        await deps.db.transaction((tx) => queuePublish(tx, target.id, now()));
      }
      return;
    }
    case 'awaiting_permalink': {
      // Published, its link to come: read again while the platform's bound allows, then taken as
      // published without a permalink rather than polled for ever.
      const rules = processingOf(platform);
      if (rules !== null && !boundPassed(processingStart(run), rules.permalinkLimitSeconds ?? 0)) {
        await waitUntil(deps.db, target, nextRead(rules, target.polls), {
          polls: target.polls + 1,
          waitingReason: status.message ?? `Published on ${platformInfo(platform).label}; waiting for its link.`,
        });
        return;
      }
      // Its link as the platform gives it now: none, unless it came since the read above.
      await markPublished(run, await publishedPostOf(run, containerId));
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
      const post = await publishedPostOf(run, containerId);
      const found = status.warning === undefined ? post : { ...post, warning: status.warning };
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
      // The claim as this run holds it, renewed at each part recorded.
      const claim = { at: now() };
      const claimed = await transition(deps.db, targetStates, target.id, 'claim', { set: { claimedAt: claim.at } });
      if (!claimed) {
        await watchClaim(deps.db, target.id);
        return;
      }
      const holder = { ...run, target: claimed };
      let published: PublishedPost;
      try {
        published = await publishClaimed(holder, containerId, claim);
      } catch (error) {
        throw await afterFailedPublish(holder, claim.at, error);
      }
      await markPublished(holder, published);
      return;
    }
  }
}

/**
 * What a failed publish call leaves of its claim. A refusal answered without a server error made
 * nothing: the claim is given back, and the failure's retry asks the container as soon as it may.
 * A call that may have made the post (mayHaveActed) keeps it, renewed (the platform may still be
 * making it), and its failure may end the claimed target. A claim no longer the run's (ClaimLost)
 * leaves the target to the run that has it now.
 */
async function afterFailedPublish({ deps, target }: Run, held: Date, error: unknown): Promise<unknown> {
  if (!mayHaveActed(error)) {
    const given = await transition(deps.db, targetStates, target.id, 'resume', {
      set: { claimedAt: null },
      when: asHolder(held),
    });
    return given === null ? new ClaimLost(error) : error;
  }
  const renewed = await renewClaim(deps.db, target.id, held);
  return renewed === null ? new ClaimLost(error) : new HeldClaimFailure(error, renewed);
}

/**
 * Publishes a claimed container. Where publishing is several calls (an X thread), each call's
 * container id is recorded as it is made; where the platform publishes what it receives, a
 * passing failure may be a post made, so it ends the try with `outcome_unknown` rather than a
 * second post (a retry asks the recorded container first).
 */
async function publishClaimed(run: Run, containerId: string, claim: { at: Date }): Promise<PublishedPost> {
  const { deps, adapter, credentials, target, post, platform } = run;
  let latest = containerId;
  const progress = {
    options: platformOptions(post.platformOptions, platform),
    attempt: target.attempts,
    record: async (made: string) => {
      // A part recorded renews the claim; a claim no longer this run's (its lease passed) stops it.
      const renewed = await renewClaim(deps.db, target.id, claim.at, { containerId: made });
      if (renewed === null) throw new Error('the claim of this publish passed to another run; no more parts are made');
      claim.at = renewed;
      latest = made;
    },
  };
  try {
    return await adapter.publishing.publishContainer(credentials, containerId, progress);
  } catch (error) {
    const { label, publishing } = platformInfo(platform);
    const passing = !(error instanceof PlatformError) || error.kind === 'transient';
    // Every part made and recorded: what failed was reading the post, which a retry reads again.
    if (publishing.containerPublishes && passing && latest !== containerId) {
      const made = await adapter.publishing.containerStatus(credentials, latest);
      if (made.state === 'published') throw error;
    }
    if (publishing.containerPublishes && passing) {
      throw failure(
        'outcome_unknown',
        `${label} may or may not have received part of the post (${error instanceof Error ? error.message : String(error)}); check the account. A retry goes on after the parts recorded as made.`,
      );
    }
    throw error;
  }
}

/** The adapter's after-publishing step: run at most once (marked before the call); its failure is recorded, the post stays published. */
export async function runAfterPublish(run: Run): Promise<void> {
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

/** The cancelled target's upload made ahead is gone from the platform, or is left for good: the step ends. */
export async function markWithdrawn({ deps, target }: Pick<Run, 'deps' | 'target'>): Promise<void> {
  await transition(deps.db, targetStates, target.id, 'withdrawn', { set: { waitingReason: null } });
}

/** A removal that failed for now is tried again this long after (the post's time may be near). */
const WITHDRAW_RETRY_MS = 60_000;
/**
 * An unfinished upload is looked at again every minute (a run sending its bytes may finish it,
 * and the platform publishes it at the post's time), for longer than a transfer may last (the
 * adapter's bound): this many looks.
 */
const WITHDRAW_RECHECKS = 31;

/**
 * A cancelled upload that could not be removed before the post's time: read once, it is the
 * post it became if the platform published it, else withdrawn (a failed read: withdrawn, logged
 * with the target and upload for someone to look at the account).
 */
async function settleWithdrawal(run: Run, containerId: string, cause: PlatformError): Promise<void> {
  const { deps, adapter, credentials, target, platform } = run;
  try {
    // Read only: neither its time moved nor the rest of an unfinished upload sent.
    const status = await adapter.publishing.containerStatus(credentials, containerId, {
      mediaUrls: async () => {
        throw new PlatformError('invalid_request', "a cancelled post's unfinished upload is not resumed", { platform });
      },
    });
    if (status.state === 'published') {
      await markPublished(run, await publishedPostOf(run, containerId));
      return;
    }
  } catch (error) {
    if (!(error instanceof PlatformError) || error.kind === 'token_expired') throw error;
    deps.log.warn(
      { target_id: target.id, platform, container_id: containerId, err: error.message, cause: cause.message },
      "a cancelled post's upload made ahead could be neither removed nor read after its time; look at the account",
    );
  }
  await markWithdrawn(run);
}

/**
 * Removes an upload made ahead whose post was cancelled before its time (the `withdraw` step),
 * so the platform never publishes it. Repeatable: a removal already made answers so again, and
 * each outcome is recorded before the step ends. One the platform published first (its time
 * came) stands: the target is published. A removal that fails is tried again, the target
 * saying why; the platform publishes the upload at its time until it is removed.
 */
export async function withdrawUpload(run: Run): Promise<void> {
  const { deps, adapter, credentials, target, platform } = run;
  const { label } = platformInfo(platform);
  const containerId = target.containerId;
  const withdraw = adapter.publishing.withdraw;
  if (containerId === null || withdraw === undefined) {
    await markWithdrawn(run);
    return;
  }
  let result: Awaited<ReturnType<typeof withdraw>>;
  try {
    result = await withdraw(credentials, containerId);
  } catch (error) {
    // An ended token is refreshed by the shared mechanism, the step run again after it.
    if (!(error instanceof PlatformError) || error.kind === 'token_expired') throw error;
    if (now().getTime() >= run.post.scheduledAt.getTime()) {
      // Its time has passed: the platform has published it or never will; one read settles it.
      await settleWithdrawal(run, containerId, error);
      return;
    }
    const next = new Date(now().getTime() + WITHDRAW_RETRY_MS);
    await waitUntil(deps.db, target, next, {
      failures: target.failures + 1,
      waitingReason: `Removing the upload from ${label} failed (${error.message}); trying again at ${next.toISOString()}. Until it is removed, ${label} publishes it at the post's time.`,
    });
    deps.log.warn(
      { target_id: target.id, platform, retry_at: next.toISOString(), err: error.message },
      'the upload made ahead of a cancelled post could not be removed yet; retrying',
    );
    return;
  }
  switch (result.outcome) {
    case 'published':
      // Its time came first: what is on the platform wins.
      await markPublished(run, result.post);
      return;
    case 'incomplete':
      if (target.polls < WITHDRAW_RECHECKS) {
        // A run may have been sending the rest when the post was cancelled: looked at every
        // minute while that transfer may last, so a finished upload is removed before its time.
        const next = new Date(now().getTime() + WITHDRAW_RETRY_MS);
        await waitUntil(deps.db, target, next, {
          polls: target.polls + 1,
          waitingReason: `The upload to ${label} was unfinished when the post was cancelled; looking at it again at ${next.toISOString()} to remove it if it was finished meanwhile.`,
        });
        return;
      }
      break;
    case 'withdrawn':
      break;
  }
  await markWithdrawn(run);
  deps.log.info({ target_id: target.id, platform }, 'the upload made ahead of a cancelled post was removed');
}
