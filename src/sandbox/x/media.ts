/**
 * X's v2 media upload, imitated: the one-request image upload (`POST /2/media/upload`, the file
 * base64-encoded in JSON) and the chunked upload (`POST /2/media/upload/initialize` with the
 * type, size and category; `POST /2/media/upload/{id}/append` with each segment, base64 in JSON,
 * in order from 0; `POST /2/media/upload/{id}/finalize`), then `GET /2/media/upload?command=STATUS`
 * while a video or GIF is processed: `pending`, then `in_progress`, then `succeeded` once
 * `container_processing_seconds` have passed since the finalize, with `check_after_secs` the
 * seconds left; `failed` when its bytes are not the type it was announced as, or while the
 * control API's `x_media_processing` is `fails`. A post names an upload by its id.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { param } from '../kit.ts';
import { type MediaFormat, sniffFormat } from '../media-fetch.ts';
import type { Store } from '../platform.ts';
import type { SandboxContainer } from '../schema.ts';
import {
  CONTAINER_PROCESSING_SECONDS,
  createContainer,
  findContainer,
  setContainerRequest,
} from '../store/containers.ts';
import { oneOf, waitMs } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { callOptions, SCOPE } from './access.ts';
import { invalidRequest, xProblem } from './answers.ts';

/** Whether the videos and GIFs finalized from now on are processed, or fail (the control API's switch). */
export const MEDIA_PROCESSING = oneOf('x_media_processing', ['succeeds', 'fails']);

const MB = 1024 * 1024;
/** What each category takes ("Media upload": images 5 MB, GIFs 15 MB, videos 512 MB). */
const CATEGORIES = {
  tweet_image: { maxBytes: 5 * MB, types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] },
  tweet_gif: { maxBytes: 15 * MB, types: ['image/gif'] },
  tweet_video: { maxBytes: 512 * MB, types: ['video/mp4', 'video/quicktime'] },
} as const;
type Category = keyof typeof CATEGORIES;
/** The format a media type's bytes begin as. */
const FORMAT_OF: Record<string, MediaFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
};
/** "An ordered index of file chunk. It must be between 0-999 inclusive." */
const MAX_SEGMENTS = 1000;
/** A segment's JSON body: its bytes in base64, and room for the other fields. */
const SEGMENT_BODY_BYTES = 8 * MB;
/** The one-request upload's body: 5 MB in base64, and room for the other fields. */
const UPLOAD_BODY_BYTES = 8 * MB;
/** An image's upload: the seconds it may be named in a post. */
const IMAGE_TTL_SECONDS = 86_400;
/** A chunked upload: the seconds its bytes may take, and then it may be named (the quickstart's answer). */
const CHUNKED_TTL_SECONDS = 1_295_999;

function jsonObject(value: unknown, name: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalidRequest(`${name} must be an object`);
  return value as Record<string, unknown>;
}

const notFound = (id: string) =>
  xProblem(
    404,
    'Not Found Error',
    `Could not find media with id: [${id}].`,
    'https://api.twitter.com/2/problems/resource-not-found',
  );

/** What the sandbox keeps of an upload (its container's request). */
interface Upload {
  kind: 'x_media';
  owner: string;
  category: Category;
  mediaType: string;
  totalBytes: number;
  /** The sizes of the segments received, in order. */
  segments: number[];
  /** What the first segment's bytes are. */
  format: MediaFormat | null;
  expiresAt: number;
  finalizedAt?: number;
  fails?: boolean;
  mediaUrl?: string;
}

function uploadIn(container: SandboxContainer): Upload {
  return container.request as unknown as Upload;
}

const receivedOf = (upload: Upload) => upload.segments.reduce((sum, size) => sum + size, 0);

/** The caller's upload `id` (another user's, or none: 404). */
async function ownUpload(store: Store, request: FastifyRequest, id: string): Promise<SandboxContainer> {
  const who = await uploader(store, request);
  const found = /^\d+$/.test(id) ? await findContainer(store, id) : undefined;
  if (found?.request.kind !== 'x_media' || found.request.owner !== who.account.id) throw notFound(id);
  return found;
}

function mediaUrlOf(id: string, upload: Upload): string {
  return upload.category === 'tweet_image'
    ? `https://pbs.twimg.com/media/${id}.${upload.format === 'jpeg' ? 'jpg' : upload.format}`
    : upload.category === 'tweet_gif'
      ? `https://video.twimg.com/tweet_video/${id}.mp4`
      : `https://video.twimg.com/ext_tw_video/${id}/pu/vid/${id}.mp4`;
}

/** An upload's processing now: none for an image; a video's or GIF's as its finalize and the setting say. */
async function processingInfo(store: Store, upload: Upload): Promise<Record<string, unknown> | undefined> {
  if (upload.category === 'tweet_image' || upload.finalizedAt === undefined) return undefined;
  const wait = waitMs(await getSetting(store, CONTAINER_PROCESSING_SECONDS));
  const elapsed = store.now().getTime() - upload.finalizedAt;
  if (elapsed < wait) {
    return {
      state: elapsed * 2 < wait ? 'pending' : 'in_progress',
      check_after_secs: Math.max(1, Math.ceil((wait - elapsed) / 1000)),
      // Counted in whole seconds, as check_after_secs is.
      ...(Number.isFinite(wait) ? { progress_percent: Math.floor((Math.floor(elapsed / 1000) * 100_000) / wait) } : {}),
    };
  }
  if (upload.fails) {
    return {
      state: 'failed',
      progress_percent: 100,
      error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' },
    };
  }
  return { state: 'succeeded', progress_percent: 100 };
}

async function mediaAnswer(store: Store, id: string, upload: Upload) {
  const processing = await processingInfo(store, upload);
  return {
    data: {
      id,
      media_key: `${upload.category === 'tweet_image' ? 3 : upload.category === 'tweet_gif' ? 16 : 7}_${id}`,
      size: receivedOf(upload),
      expires_after_secs: Math.max(0, Math.floor((upload.expiresAt - store.now().getTime()) / 1000)),
      ...(processing === undefined ? {} : { processing_info: processing }),
    },
  };
}

/**
 * The uploads a post names, in order: each the caller's, finalized and processed; one video or
 * one GIF alone, or up to 4 images ("You may attach up to 4 photos, 1 animated GIF or 1 video").
 * Their URLs and what was received of each.
 */
export async function attachedMedia(
  store: Store,
  userId: string,
  ids: unknown[],
): Promise<{ type: 'TEXT' | 'IMAGE' | 'VIDEO' | 'GIF'; urls: string[]; received: Record<string, unknown>[] }> {
  const uploads: { id: string; upload: Upload }[] = [];
  for (const given of ids) {
    const id = String(given);
    const found = typeof given === 'string' && /^\d+$/.test(id) ? await findContainer(store, id) : undefined;
    if (found?.request.kind !== 'x_media' || found.request.owner !== userId) {
      throw invalidRequest(`Your media IDs are invalid: ${id}`);
    }
    const upload = uploadIn(found);
    if (upload.mediaUrl === undefined || store.now().getTime() > upload.expiresAt) {
      throw invalidRequest(`Your media IDs are invalid: ${id}`);
    }
    const processing = await processingInfo(store, upload);
    if (processing !== undefined && processing.state !== 'succeeded') {
      throw invalidRequest(`Your media IDs are invalid: ${id} (processing ${String(processing.state)})`);
    }
    uploads.push({ id, upload });
  }
  const alone = uploads.filter(({ upload }) => upload.category !== 'tweet_image');
  if (alone.length > 0 && uploads.length > 1) {
    throw invalidRequest('A post takes one video or one animated GIF alone, or up to 4 images.');
  }
  if (uploads.length > 4) throw invalidRequest('media.media_ids holds at most 4 images');
  const [first] = alone;
  return {
    type:
      uploads.length === 0
        ? 'TEXT'
        : first === undefined
          ? 'IMAGE'
          : first.upload.category === 'tweet_gif'
            ? 'GIF'
            : 'VIDEO',
    urls: uploads.map(({ upload }) => upload.mediaUrl as string),
    received: uploads.map(({ id, upload }) => ({
      id,
      media_category: upload.category,
      media_type: upload.mediaType,
      total_bytes: upload.totalBytes,
      segments: upload.segments,
    })),
  };
}

/** The caller, allowed to upload media. */
async function uploader(store: Store, request: FastifyRequest) {
  const options = callOptions(store.now);
  const who = await caller(store, request, options);
  requireScope(who, options, SCOPE.mediaWrite);
  return who;
}

export function mediaRoutes(app: FastifyInstance, store: Store): void {
  // "Upload": an image in one request.
  app.post('/2/media/upload', { bodyLimit: UPLOAD_BODY_BYTES }, async (request) => {
    const who = await uploader(store, request);
    const body = jsonObject(request.body ?? null, 'The body');
    if (body.media_category !== 'tweet_image') {
      throw invalidRequest('media_category must be tweet_image here; videos and GIFs are uploaded in segments');
    }
    const bytes = typeof body.media === 'string' ? Buffer.from(body.media, 'base64') : Buffer.alloc(0);
    if (bytes.length === 0) throw invalidRequest('media is required');
    if (bytes.length > CATEGORIES.tweet_image.maxBytes) throw invalidRequest('File size exceeds 5242880 bytes.');
    const format = sniffFormat(bytes.subarray(0, 32));
    if (format === null || !['jpeg', 'png', 'webp', 'gif'].includes(format))
      throw invalidRequest('Unsupported media type.');
    const upload: Upload = {
      kind: 'x_media',
      owner: who.account.id,
      category: 'tweet_image',
      mediaType: `image/${format}`,
      totalBytes: bytes.length,
      segments: [bytes.length],
      format,
      expiresAt: store.now().getTime() + IMAGE_TTL_SECONDS * 1000,
    };
    const made = await createContainer(store, who.account.id, { ...upload });
    const done = { ...upload, finalizedAt: store.now().getTime(), mediaUrl: mediaUrlOf(made.id, upload) };
    await setContainerRequest(store, made.id, { ...done });
    return { data: { ...(await mediaAnswer(store, made.id, done)).data, image: { image_type: `image/${format}` } } };
  });

  // "Initialize media upload": the type, the size and the category; the upload's id.
  app.post('/2/media/upload/initialize', async (request) => {
    const who = await uploader(store, request);
    const body = jsonObject(request.body ?? null, 'The body');
    const category = body.media_category ?? 'tweet_image';
    if (typeof category !== 'string' || !Object.hasOwn(CATEGORIES, category)) {
      throw invalidRequest(`media_category must be one of ${Object.keys(CATEGORIES).join(', ')}`);
    }
    const rules = CATEGORIES[category as Category];
    const mediaType = body.media_type;
    if (typeof mediaType !== 'string' || !(rules.types as readonly string[]).includes(mediaType)) {
      throw invalidRequest(`Unsupported media type for ${category}: ${String(mediaType)}.`);
    }
    const total = body.total_bytes;
    if (typeof total !== 'number' || !Number.isSafeInteger(total) || total <= 0) {
      throw invalidRequest('total_bytes must be a positive whole number');
    }
    if (total > rules.maxBytes) throw invalidRequest(`File size exceeds ${rules.maxBytes} bytes.`);
    const upload: Upload = {
      kind: 'x_media',
      owner: who.account.id,
      category: category as Category,
      mediaType,
      totalBytes: total,
      segments: [],
      format: null,
      expiresAt: store.now().getTime() + CHUNKED_TTL_SECONDS * 1000,
    };
    const made = await createContainer(store, who.account.id, { ...upload });
    return { data: { id: made.id, media_key: `7_${made.id}`, expires_after_secs: CHUNKED_TTL_SECONDS } };
  });

  // "Append Media upload": the next segment, in order from 0, never past the announced size.
  app.post('/2/media/upload/:id/append', { bodyLimit: SEGMENT_BODY_BYTES }, async (request) => {
    const { id } = request.params as { id: string };
    const found = await ownUpload(store, request, id);
    const upload = uploadIn(found);
    if (store.now().getTime() > upload.expiresAt) throw invalidRequest(`The upload ${id} has expired.`);
    if (upload.finalizedAt !== undefined) throw invalidRequest(`The upload ${id} is already finalized.`);
    const index = Number(param(request, 'segment_index'));
    if (!Number.isInteger(index) || index < 0 || index >= MAX_SEGMENTS) {
      throw invalidRequest('segment_index must be between 0 and 999');
    }
    if (index !== upload.segments.length) {
      throw invalidRequest(`Segment ${index} is out of order: the next segment is ${upload.segments.length}.`);
    }
    const body = jsonObject(request.body ?? null, 'The body');
    const bytes = typeof body.media === 'string' ? Buffer.from(body.media, 'base64') : Buffer.alloc(0);
    if (bytes.length === 0) throw invalidRequest('media is required');
    if (receivedOf(upload) + bytes.length > upload.totalBytes) {
      throw invalidRequest(`The segments exceed total_bytes (${upload.totalBytes}).`);
    }
    await setContainerRequest(store, id, {
      ...upload,
      segments: [...upload.segments, bytes.length],
      ...(index === 0 ? { format: sniffFormat(bytes.subarray(0, 32)) } : {}),
    });
    return { data: { expires_at: Math.floor(upload.expiresAt / 1000) } };
  });

  // "Finalize Media upload": every announced byte received; a video or GIF is then processed.
  app.post('/2/media/upload/:id/finalize', async (request) => {
    const { id } = request.params as { id: string };
    const upload = uploadIn(await ownUpload(store, request, id));
    if (store.now().getTime() > upload.expiresAt) throw invalidRequest(`The upload ${id} has expired.`);
    if (upload.finalizedAt !== undefined) throw invalidRequest(`The upload ${id} is already finalized.`);
    const received = receivedOf(upload);
    if (received !== upload.totalBytes) {
      throw invalidRequest(
        `Only ${received} of ${upload.totalBytes} bytes were received: the upload cannot be finalized.`,
      );
    }
    const fails =
      upload.format !== FORMAT_OF[upload.mediaType] || (await getSetting(store, MEDIA_PROCESSING)) === 'fails';
    const done: Upload = {
      ...upload,
      finalizedAt: store.now().getTime(),
      fails,
      mediaUrl: mediaUrlOf(id, upload),
    };
    await setContainerRequest(store, id, { ...done });
    return await mediaAnswer(store, id, done);
  });

  // "Get Media upload status".
  app.get('/2/media/upload', async (request) => {
    if (param(request, 'command') !== 'STATUS') throw invalidRequest('command must be STATUS');
    const id = param(request, 'media_id') ?? '';
    const upload = uploadIn(await ownUpload(store, request, id));
    return await mediaAnswer(store, id, upload);
  });
}
