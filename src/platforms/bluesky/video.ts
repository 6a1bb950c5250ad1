/**
 * A post's video, as Bluesky's "Uploading Video" tutorial recommends: the video is sent to
 * Bluesky's video service (`app.bsky.video.uploadVideo` at video.bsky.app) with a service token
 * the user's PDS signs (`com.atproto.server.getServiceAuth`, audience the PDS, bound to
 * `com.atproto.repo.uploadBlob`, 30 minutes). The service processes it and stores the result in the
 * user's repository as a blob; its job (`app.bsky.video.getJobStatus`) is read until it names that
 * blob, which the post's `app.bsky.embed.video` then names. So the post never shows a video still
 * being processed, and a failed processing ends the try before any post is written.
 *
 * Before sending, the account's daily allowance is read (`app.bsky.video.getUploadLimits`, with a
 * token for the video service itself), as Bluesky's own app does: an account that may not upload
 * now is told so rather than finding the job failed later.
 *
 * The video service's refusals are about the service tokens the PDS signed a moment before, or
 * about the video, never about the account's own tokens: none of them is `token_expired`.
 */
import { Readable } from 'node:stream';
import { request } from 'undici';
import { invalidRequest } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { record, requiredText, str } from '../http.ts';
import { capped, mediaTypeOf, openMedia } from '../media-source.ts';
import { type ContainerStatus, PlatformError, type RequestMedium } from '../types.ts';
import { type BlueskyContext, platform, xrpcError } from './api.ts';
import { BLUESKY_MAX_VIDEO_BYTES } from './definition.ts';
import type { BlueskySession } from './session.ts';

/** The video service and its DID (did:web of its host), as Bluesky's app names them. */
const VIDEO_SERVICE = 'https://video.bsky.app';
const VIDEO_SERVICE_DID = 'did:web:video.bsky.app';
/** "30 minutes is recommended" for the upload's token: the service stores the blob with it after processing. */
const UPLOAD_TOKEN_SECONDS = 30 * 60;
/** The token read for the allowance is used at once. */
const LIMITS_TOKEN_SECONDS = 60;
const TRANSFER_TIMEOUT_MS = 30 * 60_000;
/**
 * The daily allowance is a rolling day, whose next free place Bluesky does not tell: an account
 * that has spent it is tried again after a quarter of an hour, within the post's retry window.
 */
const ALLOWANCE_RETRY_SECONDS = 900;
/** A job's item as publishing keeps it: the prefix tells it from a post's container (base64url, never a dot). */
const ITEM_PREFIX = 'bsky-video-job.';

export function isVideoItem(id: string): boolean {
  return id.startsWith(ITEM_PREFIX);
}

function jobIdOf(item: string): string {
  const jobId = item.slice(ITEM_PREFIX.length);
  if (!isVideoItem(item) || jobId === '' || jobId.length > 200)
    throw invalidRequest(platform, `not a video job: ${item}`);
  return jobId;
}

/** A token the user's PDS signs for `aud`, bound to the method `lxm`. */
async function serviceToken(
  { api, now }: BlueskyContext,
  session: BlueskySession,
  aud: string,
  lxm: string,
  seconds: number,
): Promise<string> {
  const answer = await api.xrpc(session, 'GET', 'com.atproto.server.getServiceAuth', {
    query: { aud, lxm, exp: Math.floor(now().getTime() / 1000) + seconds },
  });
  return requiredText(platform, answer.token, 'token');
}

/** The PDS's service DID, as Bluesky's app derives it: did:web of the PDS's host. */
function pdsDid(session: BlueskySession): string {
  return `did:web:${new URL(session.pds).hostname}`;
}

/** A refusal of the video service, classified without ever ending the account's tokens. */
function videoServiceError(response: PlatformResponse, now: Date): PlatformError {
  const classified = xrpcError(response, now);
  if (classified.kind !== 'token_expired' && classified.kind !== 'access_revoked') return classified;
  return new PlatformError(
    'invalid_request',
    `bluesky's video service refused its service token: ${classified.message}`,
    {
      ...classified.detail,
    },
  );
}

async function checkAllowance(context: BlueskyContext, session: BlueskySession, size: number | null): Promise<void> {
  const token = await serviceToken(
    context,
    session,
    VIDEO_SERVICE_DID,
    'app.bsky.video.getUploadLimits',
    LIMITS_TOKEN_SECONDS,
  );
  const response = await context.api.service({
    method: 'GET',
    url: `${VIDEO_SERVICE}/xrpc/app.bsky.video.getUploadLimits`,
    bearer: token,
  });
  if (response.status !== 200) throw videoServiceError(response, context.now());
  const limits = record(response.body);
  const videos = typeof limits.remainingDailyVideos === 'number' ? limits.remainingDailyVideos : null;
  const bytes = typeof limits.remainingDailyBytes === 'number' ? limits.remainingDailyBytes : null;
  const spent = videos === 0 || bytes === 0 || (bytes !== null && size !== null && bytes < size);
  if (limits.canUpload === true && !spent) return;
  const why = str(limits.message) ?? str(limits.error) ?? 'the daily video upload limit is reached';
  if (spent) {
    throw new PlatformError('rate_limited', `bluesky: the account's daily video allowance is spent: ${why}`, {
      platform,
      retryAfterSeconds: ALLOWANCE_RETRY_SECONDS,
      platformMessage: why,
    });
  }
  // Not the allowance (an e-mail not confirmed, an account too new, uploads taken away): waiting changes nothing.
  throw new PlatformError('invalid_request', `bluesky: the account may not upload videos: ${why}`, {
    platform,
    platformMessage: why,
  });
}

/**
 * The job an upload answered: its JobStatus as the tutorial and Bluesky's app read it (the
 * object itself), or wrapped as `jobStatus` as the lexicon's output names it.
 */
function jobOf(body: unknown): Record<string, unknown> {
  const answer = record(body);
  return typeof answer.jobStatus === 'object' && answer.jobStatus !== null ? record(answer.jobStatus) : answer;
}

/** Sends the medium's bytes to the video service: the item to read until the video is processed. */
export async function uploadVideo(
  context: BlueskyContext,
  session: BlueskySession,
  did: string,
  medium: RequestMedium,
): Promise<string> {
  const tooLarge = () =>
    invalidRequest(platform, `a video has more than ${BLUESKY_MAX_VIDEO_BYTES} bytes, Bluesky's limit`);
  const size = typeof medium.sizeBytes === 'number' ? medium.sizeBytes : null;
  if (size !== null && size > BLUESKY_MAX_VIDEO_BYTES) throw tooLarge();
  await checkAllowance(context, session, size);
  const token = await serviceToken(
    context,
    session,
    pdsDid(session),
    'com.atproto.repo.uploadBlob',
    UPLOAD_TOKEN_SECONDS,
  );
  const failed = (why: string) =>
    new PlatformError('transient', `bluesky: the video could not be sent to Bluesky: ${why}`, { platform });
  const { dispatcher } = context.options;
  const source = await openMedia(medium.url, { dispatcher, timeoutMs: TRANSFER_TIMEOUT_MS, failed });
  const type = mediaTypeOf(source) ?? 'video/mp4';
  const length = Number(source.headers['content-length']);
  const url = new URL(context.api.webUrl(`${VIDEO_SERVICE}/xrpc/app.bsky.video.uploadVideo`));
  url.searchParams.set('did', did);
  url.searchParams.set('name', `video.${type === 'video/quicktime' ? 'mov' : 'mp4'}`);
  let answer: Awaited<ReturnType<typeof request>>;
  try {
    answer = await request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': type,
        ...(Number.isFinite(length) && length > 0 ? { 'content-length': String(length) } : {}),
      },
      body: Readable.from(capped(source, BLUESKY_MAX_VIDEO_BYTES, tooLarge)),
      signal: AbortSignal.timeout(TRANSFER_TIMEOUT_MS),
      ...(dispatcher ? { dispatcher } : {}),
    });
  } catch (error) {
    if (error instanceof PlatformError) throw error;
    throw failed((error as Error).message);
  }
  const text = await answer.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const job = jobOf(parsed);
  // "already_exists" (the same video processed before) still names its job, whose blob is the video's.
  const jobId = str(job.jobId);
  if (jobId !== null && jobId !== '') return `${ITEM_PREFIX}${jobId}`;
  const refusal = { status: answer.statusCode, headers: answer.headers, body: parsed, text: text.slice(0, 500) };
  if (answer.statusCode >= 200 && answer.statusCode < 300) {
    // A job status without a job: the upload refused in the job's words (an e-mail not confirmed, say).
    const why = str(job.message) ?? str(job.error) ?? 'no job was made';
    throw new PlatformError('invalid_request', `bluesky: the video service took no video: ${why}`, {
      platform,
      platformMessage: why,
    });
  }
  throw videoServiceError(refusal, context.now());
}

/** A job's state, and its blob once the video is in the repository. */
export async function videoJob(
  context: BlueskyContext,
  item: string,
): Promise<{ status: ContainerStatus; blob: Record<string, unknown> | null }> {
  const response = await context.api.service({
    method: 'GET',
    url: `${VIDEO_SERVICE}/xrpc/app.bsky.video.getJobStatus`,
    query: { jobId: jobIdOf(item) },
  });
  if (response.status !== 200) throw videoServiceError(response, context.now());
  const job = jobOf(response.body);
  const blob = typeof job.blob === 'object' && job.blob !== null ? record(job.blob) : null;
  // "We recommend checking for the presence of a BlobRef in the response regardless of the
  // success or failure of the job": a video processed before answers `already_exists` with its blob.
  if (blob !== null && blob.$type === 'blob') return { status: { state: 'finished' }, blob };
  const state = str(job.state) ?? '';
  // A video sent again while its first processing goes on: its blob comes with a later answer.
  if (str(job.error) === 'already_exists') {
    return {
      status: { state: 'in_progress', message: 'Bluesky is processing the video (sent before: already_exists)' },
      blob: null,
    };
  }
  if (state === 'JOB_STATE_FAILED') {
    const why = str(job.message) ?? str(job.error) ?? str(job.failureCode) ?? 'the video could not be processed';
    return { status: { state: 'failed', message: `Bluesky could not process the video: ${why}` }, blob: null };
  }
  if (state === 'JOB_STATE_COMPLETED') {
    throw new PlatformError('transient', 'bluesky answered a completed video job without its blob', { platform });
  }
  // "All values not listed as a known value indicate that the job is in process."
  const progress = typeof job.progress === 'number' ? `, ${job.progress}%` : '';
  return {
    status: { state: 'in_progress', message: `Bluesky is processing the video (${state}${progress})` },
    blob: null,
  };
}
