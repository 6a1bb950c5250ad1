/**
 * Uploading an image to LinkedIn (Images API): `initializeUpload` names the image
 * (`urn:li:image:...`) and a URL to PUT its bytes to, with the member's token. LinkedIn takes
 * no media by URL, so the service streams its own media file there. LinkedIn then processes the
 * upload: a post may name it once its status is AVAILABLE.
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

/** Streams the file at `mediaUrl` to LinkedIn's `uploadUrl`. */
async function transfer(context: LinkedInContext, mediaUrl: string, uploadUrl: string, token: string): Promise<void> {
  const { dispatcher, countCall } = context.options;
  const signal = AbortSignal.timeout(TRANSFER_TIMEOUT_MS);
  const via = dispatcher ? { dispatcher } : {};
  let source: Awaited<ReturnType<typeof request>>;
  try {
    source = await request(mediaUrl, { signal, ...via });
  } catch (error) {
    throw new PlatformError('transient', `the image could not be read for LinkedIn: ${(error as Error).message}`, {
      platform,
    });
  }
  if (source.statusCode !== 200) {
    await source.body.dump();
    throw new PlatformError('transient', `the image could not be read for LinkedIn (HTTP ${source.statusCode})`, {
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
}

/** Uploads one image for `ownerUrn` (the organization the post is by): its URN. */
export async function uploadImage(
  context: LinkedInContext,
  token: string,
  ownerUrn: string,
  mediaUrl: string,
): Promise<string> {
  const answer = await context.api.restObject('POST', '/images', token, {
    query: { action: 'initializeUpload' },
    json: { initializeUploadRequest: { owner: ownerUrn } },
  });
  const value = record(answer.value);
  const image = requiredText(platform, value.image, 'image');
  const uploadUrl = checkedUploadUrl(context, requiredText(platform, value.uploadUrl, 'uploadUrl'));
  await transfer(context, mediaUrl, uploadUrl, token);
  return image;
}

/** The media a post names: its URN's kind, and the API that reads its status. */
const MEDIA_URN = /^urn:li:(image):[A-Za-z0-9_-]+$/;
const STATUS_PATHS = { image: '/images' } as const;

/** Whether `urn` names media uploaded for a post (else it is the post's own URN). */
export function isMediaUrn(urn: string): boolean {
  return MEDIA_URN.test(urn);
}

/**
 * An upload's processing (Images API, "Get a Single Image": `status` is WAITING_UPLOAD,
 * PROCESSING, AVAILABLE or PROCESSING_FAILED): a post may name it once AVAILABLE.
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
