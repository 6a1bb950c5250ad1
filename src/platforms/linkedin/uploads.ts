/**
 * Uploading media to LinkedIn: an image (Images API: `initializeUpload` names the image,
 * `urn:li:image:...`, and a URL to PUT its bytes to) or a video (Videos API: its parts PUT to the
 * URLs LinkedIn gives, then `finalizeUpload`), with the member's token. LinkedIn takes no media by
 * URL, so the service streams its own media file there. LinkedIn then processes the upload: a
 * post may name it once its status is AVAILABLE.
 */
import { request } from 'undici';
import { record, requiredText, underBase } from '../http.ts';
import { type ContainerStatus, PlatformError } from '../types.ts';
import type { LinkedInContext } from './api.ts';
import { linkedinError } from './errors.ts';

const platform = 'linkedin';
const TRANSFER_TIMEOUT_MS = 120_000;

/** The upload URL, if LinkedIn's (or the sandbox's stand-in for it): the member's token goes there. */
function checkedUploadUrl(context: LinkedInContext, value: string): string {
  for (const host of ['www.linkedin.com', 'api.linkedin.com']) {
    const url = underBase(context.options.hostUrl(host), value);
    if (url !== null) return url;
  }
  throw new PlatformError('transient', 'linkedin answered an upload URL outside its own hosts', { platform });
}

/** A part of a file: its first and last byte, both included. */
interface ByteRange {
  readonly firstByte: number;
  readonly lastByte: number;
}

/**
 * Streams the file at `mediaUrl` (or the part `range` names, asked of the service's media with
 * `Range`) to LinkedIn's `uploadUrl`: the ETag LinkedIn answers for it, if any.
 */
async function transfer(
  context: LinkedInContext,
  mediaUrl: string,
  uploadUrl: string,
  token: string,
  range?: ByteRange,
): Promise<string | undefined> {
  const { dispatcher, countCall } = context.options;
  const signal = AbortSignal.timeout(TRANSFER_TIMEOUT_MS);
  const via = dispatcher ? { dispatcher } : {};
  const what = range === undefined ? 'the file' : `bytes ${range.firstByte} to ${range.lastByte} of the video`;
  let source: Awaited<ReturnType<typeof request>>;
  try {
    source = await request(mediaUrl, {
      signal,
      ...(range === undefined ? {} : { headers: { range: `bytes=${range.firstByte}-${range.lastByte}` } }),
      ...via,
    });
  } catch (error) {
    throw new PlatformError('transient', `${what} could not be read for LinkedIn: ${(error as Error).message}`, {
      platform,
    });
  }
  if (source.statusCode !== (range === undefined ? 200 : 206)) {
    await source.body.dump();
    throw new PlatformError('transient', `${what} could not be read for LinkedIn (HTTP ${source.statusCode})`, {
      platform,
    });
  }
  let status: number;
  let text: string;
  let headers: Record<string, string | string[] | undefined>;
  try {
    const put = await request(uploadUrl, {
      method: 'PUT',
      body: source.body,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      signal,
      ...via,
    });
    status = put.statusCode;
    headers = put.headers;
    text = await put.body.text();
  } catch (error) {
    countCall?.(platform, 'unreachable');
    throw new PlatformError('transient', `linkedin could not be reached: ${(error as Error).message}`, { platform });
  }
  countCall?.(
    platform,
    status < 400 ? 'ok' : status === 429 ? 'rate_limited' : status < 500 ? 'client_error' : 'server_error',
  );
  if (status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    throw linkedinError({ status, headers, body, text }, context.now());
  }
  const etag = headers.etag;
  return typeof etag === 'string' ? etag : undefined;
}

/**
 * Uploads one image (Images API) or document (Documents API, a PDF) for `ownerUrn` (the
 * organization the post is by) in one PUT: its URN.
 */
export async function uploadFile(
  context: LinkedInContext,
  token: string,
  ownerUrn: string,
  kind: 'image' | 'document',
  mediaUrl: string,
): Promise<string> {
  const answer = await context.api.restObject('POST', STATUS_PATHS[kind], token, {
    query: { action: 'initializeUpload' },
    json: { initializeUploadRequest: { owner: ownerUrn } },
  });
  const value = record(answer.value);
  const urn = requiredText(platform, value[kind], kind);
  const uploadUrl = checkedUploadUrl(context, requiredText(platform, value.uploadUrl, 'uploadUrl'));
  await transfer(context, mediaUrl, uploadUrl, token);
  return urn;
}

/** Whether `value` is a whole number of bytes (a part's bound). */
const isByte = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The parts LinkedIn asks for (`uploadInstructions`), checked: in order, covering the file's `size` bytes. */
function uploadParts(context: LinkedInContext, value: unknown, size: number): (ByteRange & { url: string })[] {
  const parts = Array.isArray(value) ? value.map(record) : [];
  let next = 0;
  const checked = parts.map((part) => {
    const { firstByte, lastByte } = part;
    if (!isByte(firstByte) || !isByte(lastByte) || firstByte !== next || lastByte < firstByte) {
      throw new PlatformError('transient', 'linkedin answered upload instructions that do not cover the video', {
        platform,
      });
    }
    next = lastByte + 1;
    return { firstByte, lastByte, url: checkedUploadUrl(context, requiredText(platform, part.uploadUrl, 'uploadUrl')) };
  });
  if (next !== size) {
    throw new PlatformError('transient', 'linkedin answered upload instructions that do not cover the video', {
      platform,
    });
  }
  return checked;
}

/**
 * Uploads a video for `ownerUrn` (Videos API): `initializeUpload` with its size, each part PUT to
 * the URL LinkedIn gives for its byte range, then `finalizeUpload` with the parts' ETags, in
 * order. Its URN; LinkedIn then processes it.
 */
export async function uploadVideo(
  context: LinkedInContext,
  token: string,
  ownerUrn: string,
  media: { url: string; sizeBytes?: number | null },
): Promise<string> {
  const size = media.sizeBytes;
  if (typeof size !== 'number' || size <= 0) {
    throw new PlatformError('invalid_request', "linkedin: a video's size is needed to upload it", { platform });
  }
  const answer = await context.api.restObject('POST', '/videos', token, {
    query: { action: 'initializeUpload' },
    json: {
      initializeUploadRequest: { owner: ownerUrn, fileSizeBytes: size, uploadCaptions: false, uploadThumbnail: false },
    },
  });
  const value = record(answer.value);
  const video = requiredText(platform, value.video, 'video');
  const etags: string[] = [];
  for (const part of uploadParts(context, value.uploadInstructions, size)) {
    const etag = await transfer(context, media.url, part.url, token, part);
    if (etag === undefined) {
      throw new PlatformError('transient', 'linkedin took a part of the video without naming it (no ETag)', {
        platform,
      });
    }
    etags.push(etag);
  }
  await context.api.rest('POST', '/videos', token, {
    query: { action: 'finalizeUpload' },
    json: {
      finalizeUploadRequest: {
        video,
        uploadToken: typeof value.uploadToken === 'string' ? value.uploadToken : '',
        uploadedPartIds: etags,
      },
    },
  });
  return video;
}

/** The media a post names: its URN's kind, and the API that reads its status. */
const MEDIA_URN = /^urn:li:(image|video|document):[A-Za-z0-9_-]+$/;
const STATUS_PATHS = { image: '/images', video: '/videos', document: '/documents' } as const;

/** Whether `urn` names media uploaded for a post (else it is the post's own URN). */
export function isMediaUrn(urn: string): boolean {
  return MEDIA_URN.test(urn);
}

/**
 * An upload's processing (Images API, "Get a Single Image"; Videos API, "Get a Video": `status`
 * is WAITING_UPLOAD, PROCESSING, AVAILABLE or PROCESSING_FAILED): a post may name it once AVAILABLE.
 */
export async function mediaStatus(context: LinkedInContext, token: string, urn: string): Promise<ContainerStatus> {
  const kind = MEDIA_URN.exec(urn)?.[1] as keyof typeof STATUS_PATHS | undefined;
  if (kind === undefined) {
    throw new PlatformError('invalid_request', `linkedin: ${urn} is not an uploaded medium`, { platform });
  }
  const answer = await context.api.restObject('GET', `${STATUS_PATHS[kind]}/${encodeURIComponent(urn)}`, token);
  const status = typeof answer.status === 'string' ? answer.status : 'an unknown status';
  switch (status) {
    case 'AVAILABLE':
      return { state: 'finished' };
    case 'PROCESSING_FAILED':
      return { state: 'failed', message: `LinkedIn could not process the ${kind} (PROCESSING_FAILED)` };
    default:
      // WAITING_UPLOAD, PROCESSING, or a status LinkedIn adds: read again, within the service's bound.
      return { state: 'in_progress', message: `LinkedIn is processing the ${kind} (${status}).` };
  }
}
