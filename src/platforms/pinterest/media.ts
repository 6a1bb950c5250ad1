/**
 * Uploading a pin's video before the pin names it ("Register media upload": `POST /v5/media`,
 * then the file sent as Pinterest's answer says, then "Get media upload details" read until
 * `succeeded`). The upload is an item the publishing steps poll: `media:<media_id>`. A failure
 * here pins nothing, so the step is retried; a run that stops mid-upload uploads again.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { record, requiredText, str, underBase } from '../http.ts';
import { openMedia } from '../media-source.ts';
import { type ContainerStatus, PlatformError, type RequestMedium } from '../types.ts';
import type { PinterestContext } from './api.ts';

const platform = 'pinterest';
const TRANSFER_TIMEOUT_MS = 30 * 60_000;
/** Where Pinterest's uploads go (the upload_url of its example). */
const UPLOAD_HOST = 'pinterest-media-upload.s3-accelerate.amazonaws.com';
const ITEM = /^media:(\d{1,30})$/;

export const isMediaItem = (id: string): boolean => ITEM.test(id);

/** The media id of an item. */
export function mediaIdOf(item: string): string {
  const id = ITEM.exec(item)?.[1];
  if (id === undefined)
    throw new PlatformError('invalid_request', `pinterest: ${item} is not a media upload`, { platform });
  return id;
}

const transferFailure = (why: string) =>
  new PlatformError('transient', `pinterest: the video could not be sent to Pinterest: ${why}`, { platform });

/**
 * The file sent as the upload's form (`multipart/form-data`): each of `upload_parameters`, then the
 * file as `file`, its bytes streamed from the service's media URL.
 */
async function sendFile(
  context: PinterestContext,
  uploadUrl: string,
  parameters: Record<string, string>,
  medium: RequestMedium,
): Promise<void> {
  const { dispatcher } = context.options;
  const source = await openMedia(medium.url, { dispatcher, timeoutMs: TRANSFER_TIMEOUT_MS, failed: transferFailure });
  const boundary = `----switchboard${randomBytes(12).toString('hex')}`;
  const fields = Object.entries(parameters)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const head = Buffer.from(
    `${fields}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="video.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = source.body;
  async function* parts() {
    yield head;
    for await (const chunk of body) yield chunk as Buffer;
    yield tail;
  }
  const size = typeof medium.sizeBytes === 'number' ? medium.sizeBytes : null;
  let sent: Awaited<ReturnType<typeof request>>;
  try {
    sent = await request(uploadUrl, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(size === null ? {} : { 'content-length': String(head.length + size + tail.length) }),
      },
      body: Readable.from(parts()),
      signal: AbortSignal.timeout(TRANSFER_TIMEOUT_MS),
      ...(dispatcher ? { dispatcher } : {}),
    });
  } catch (error) {
    throw transferFailure((error as Error).message);
  }
  await sent.body.dump();
  if (sent.statusCode < 200 || sent.statusCode >= 300) throw transferFailure(`HTTP ${sent.statusCode}`);
}

/** Registers a video upload and sends its file: the item to read until Pinterest has processed it. */
export async function uploadVideo(context: PinterestContext, token: string, medium: RequestMedium): Promise<string> {
  const registered = await context.api.call('POST', '/media', token, { json: { media_type: 'video' } });
  const mediaId = requiredText(platform, registered.media_id, 'media_id');
  const given = requiredText(platform, registered.upload_url, 'upload_url');
  const uploadUrl = underBase(context.options.hostUrl(UPLOAD_HOST), given);
  if (uploadUrl === null) {
    throw new PlatformError('transient', `pinterest answered an upload URL off its upload host: ${given}`, {
      platform,
    });
  }
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(record(registered.upload_parameters))) {
    const text = str(value);
    if (text !== null) parameters[name] = text;
  }
  await sendFile(context, uploadUrl, parameters, medium);
  return `media:${mediaId}`;
}

/** Where an upload stands: `registered` and `processing` wait, `succeeded` is ready, `failed` ends. */
export async function mediaStatus(context: PinterestContext, token: string, item: string): Promise<ContainerStatus> {
  const answer = await context.api.call('GET', `/media/${mediaIdOf(item)}`, token);
  const status = str(answer.status);
  switch (status) {
    case 'succeeded':
      return { state: 'finished' };
    case 'failed':
      return { state: 'failed', message: 'Pinterest could not process the video' };
    case 'registered':
    case 'processing':
      return { state: 'in_progress', message: `Pinterest is processing the video (${status})` };
    default:
      throw new PlatformError('transient', `pinterest answered an upload status it does not document: ${status}`, {
        platform,
      });
  }
}
