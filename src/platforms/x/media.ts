/**
 * Uploading a post's media to X before the post names them (`media.media_ids`). X takes no
 * media by URL, so the service reads its own media file. An image goes in one request ("Upload":
 * `POST /2/media/upload`, base64 in JSON, `media_category: tweet_image`); a video, or a GIF alone
 * in its post, goes in segments ("Initialize media upload", "Append Media upload" for each
 * segment in order, "Finalize Media upload"), and X then processes it: its status is read
 * ("Get Media upload status", `command=STATUS`) until `processing_info.state` is `succeeded`.
 *
 * Each upload is an item the publishing steps poll before the post is made: `media:<id>` while
 * X processes it, `media:<id>:ready` when X answered no processing. A passing failure here
 * posts nothing, so the step is retried; a run that stops mid-upload uploads again.
 */
import { num, record, requiredText, str } from '../http.ts';
import { readMedia as readMediaSource } from '../media-source.ts';
import { type ContainerStatus, PlatformError, type PublishRequest } from '../types.ts';
import type { XContext } from './api.ts';
import { X_MAX_GIF_BYTES, X_MAX_IMAGE_BYTES } from './definition.ts';

const platform = 'x';
const TRANSFER_TIMEOUT_MS = 120_000;
/**
 * The bytes of each segment: 2 MiB, 2.8 MB once base64-encoded, under the 5 MB a segment may
 * have (the v1.1 APPEND reference: "It must be <= 5 MB"); 1,000 segments ("between 0-999") hold
 * far more than X's 512 MB video.
 */
const SEGMENT_BYTES = 2 * 1024 * 1024;
const ITEM = /^media:(\d{1,19})(:ready)?$/;

type Medium = PublishRequest['media'][number];

const readFailure = (why: string) =>
  new PlatformError('transient', `the media could not be read for X: ${why}`, { platform });

/** The service's media file at `url` (or its bytes `first` to `last`): its bytes and type, at most `maxBytes`. */
async function readMedia(
  { options }: XContext,
  url: string,
  maxBytes: number,
  range?: { first: number; last: number },
): Promise<{ bytes: Buffer; type: string | null }> {
  return await readMediaSource(url, {
    dispatcher: options.dispatcher,
    timeoutMs: TRANSFER_TIMEOUT_MS,
    ...(range === undefined ? {} : { range }),
    failed: readFailure,
    maxBytes,
    tooLarge: () => new PlatformError('invalid_request', `x: the medium has more than ${maxBytes} bytes`, { platform }),
  });
}

/** The item an upload is: read until processed, unless X answered no processing. */
function itemOf(id: string, processingInfo: unknown): string {
  const state = str(record(processingInfo).state);
  return state === null || state === 'succeeded' ? `media:${id}:ready` : `media:${id}`;
}

/** Uploads one image in one request. */
async function uploadImage(context: XContext, token: string, bytes: Buffer, type: string | null): Promise<string> {
  if (bytes.length > X_MAX_IMAGE_BYTES) {
    throw new PlatformError('invalid_request', `x: an image has at most ${X_MAX_IMAGE_BYTES} bytes`, { platform });
  }
  const answer = await context.api.call('POST', '/media/upload', token, {
    json: {
      media: bytes.toString('base64'),
      media_category: 'tweet_image',
      ...(type === null ? {} : { media_type: type }),
    },
  });
  return itemOf(requiredText(platform, record(answer.data).id, 'data.id'), undefined);
}

/**
 * Uploads `total` bytes in segments: initialize with their type and category, append each
 * segment (`segment` reads its bytes) in order from 0, finalize.
 */
async function uploadInSegments(
  { api }: XContext,
  token: string,
  announced: { mediaType: string; category: 'tweet_video' | 'tweet_gif'; total: number },
  segment: (first: number, last: number) => Promise<Buffer>,
): Promise<string> {
  const init = await api.call('POST', '/media/upload/initialize', token, {
    json: { media_type: announced.mediaType, total_bytes: announced.total, media_category: announced.category },
  });
  const id = requiredText(platform, record(init.data).id, 'data.id');
  const path = `/media/upload/${encodeURIComponent(id)}`;
  for (let index = 0, first = 0; first < announced.total; index += 1, first += SEGMENT_BYTES) {
    const bytes = await segment(first, Math.min(first + SEGMENT_BYTES, announced.total) - 1);
    await api.call('POST', `${path}/append`, token, {
      json: { segment_index: index, media: bytes.toString('base64') },
    });
  }
  const done = await api.call('POST', `${path}/finalize`, token);
  return itemOf(id, record(done.data).processing_info);
}

/** Uploads a video in segments, each read from the service's media as it is sent. */
async function uploadVideo(context: XContext, token: string, medium: Medium): Promise<string> {
  const total = medium.sizeBytes;
  if (typeof total !== 'number' || total <= 0) {
    throw new PlatformError('invalid_request', "x: a video's size is needed to upload it", { platform });
  }
  // The first segment says the file's type, which the upload is initialized with.
  const firstLast = Math.min(SEGMENT_BYTES, total) - 1;
  const head = await readMedia(context, medium.url, SEGMENT_BYTES, { first: 0, last: firstLast });
  return await uploadInSegments(
    context,
    token,
    { mediaType: head.type ?? 'video/mp4', category: 'tweet_video', total },
    async (first, last) =>
      first === 0 ? head.bytes : (await readMedia(context, medium.url, SEGMENT_BYTES, { first, last })).bytes,
  );
}

/**
 * Uploads a post's media, in order: its items. A GIF alone in its post is uploaded as an
 * animated GIF (`tweet_gif`, up to 15 MB); among other images, as an image.
 */
export async function uploadMedia(context: XContext, token: string, media: readonly Medium[]): Promise<string[]> {
  const items: string[] = [];
  for (const medium of media) {
    if (medium.type === 'video') {
      items.push(await uploadVideo(context, token, medium));
      continue;
    }
    const alone = media.length === 1;
    const { bytes, type } = await readMedia(context, medium.url, alone ? X_MAX_GIF_BYTES : X_MAX_IMAGE_BYTES);
    items.push(
      alone && type === 'image/gif'
        ? await uploadInSegments(
            context,
            token,
            { mediaType: type, category: 'tweet_gif', total: bytes.length },
            async (first, last) => bytes.subarray(first, last + 1),
          )
        : await uploadImage(context, token, bytes, type),
    );
  }
  return items;
}

/** Whether `id` is an upload's item (else it is a post's container). */
export function isMediaItem(id: string): boolean {
  return ITEM.test(id);
}

/** The media id a post names for an item. */
export function mediaIdOf(item: string): string {
  const id = ITEM.exec(item)?.[1];
  if (id === undefined) {
    throw new PlatformError('invalid_request', `x: ${item} is not an uploaded medium`, { platform });
  }
  return id;
}

/**
 * An upload's processing ("Get Media upload status": `processing_info.state` `pending`,
 * `in_progress`, `succeeded` or `failed`): a post may name it once succeeded.
 */
export async function mediaStatus(context: XContext, token: string, item: string): Promise<ContainerStatus> {
  const id = mediaIdOf(item);
  if (item.endsWith(':ready')) return { state: 'finished' };
  const answer = await context.api.call('GET', '/media/upload', token, {
    query: { command: 'STATUS', media_id: id },
  });
  const info = record(record(answer.data).processing_info);
  const state = str(info.state);
  switch (state) {
    case null:
    case 'succeeded':
      return { state: 'finished' };
    case 'failed': {
      const error = record(info.error);
      const why = str(error.message) ?? 'no reason given';
      const name = str(error.name);
      return { state: 'failed', message: `processing failed: ${why}${name === null ? '' : ` (${name})`}` };
    }
    default: {
      // pending, in_progress, or a state X adds: read again, within the service's bound.
      const progress = typeof info.progress_percent === 'number' ? `, ${info.progress_percent}%` : '';
      const checkAfter = num(info.check_after_secs);
      return {
        state: 'in_progress',
        message: `X is processing the medium (${state}${progress}).`,
        ...(checkAfter === null || checkAfter <= 0 ? {} : { checkAfterSeconds: checkAfter }),
      };
    }
  }
}
