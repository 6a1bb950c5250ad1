/**
 * Posting as an organization or as the token's own member (`author` `urn:li:person:{id}`, with
 * w_member_social): the Images API (`initializeUpload`, the bytes PUT to the upload
 * URL, then the image PROCESSING for `container_processing_seconds` before it is AVAILABLE, read
 * with "Get a Single Image"), the Videos API (videos.ts) and the Posts API (`POST /rest/posts`:
 * text, one image, one video, or a MultiImage of 2 to 20, each AVAILABLE), answering 201 with
 * the post's URN in `x-restli-id`.
 */
import type { FastifyInstance } from 'fastify';
import { type Caller, caller } from '../caller.ts';
import { sniffFormat } from '../media-fetch.ts';
import type { Store } from '../platform.ts';
import { recordPublication } from '../store/activity.ts';
import { setContainerRequest } from '../store/containers.ts';
import { createPost } from '../store/posts.ts';
import { authoredBy, checkVersionHeaders, publishCall } from './access.ts';
import { linkedin, linkedinAnswer } from './answers.ts';
import { documentRoutes, documentUploadRoutes } from './documents.ts';
import { shownText } from './little-text.ts';
import { availableUpload, initializeSingleUpload, jsonObject, uploadAnswer, uploadOf } from './media.ts';
import { videoRoutes, videoUploadRoutes } from './videos.ts';

/** 3,000 characters of `commentary`, as LinkedIn shows it (its composer's limit; the API pages state none). */
const MAX_COMMENTARY = 3_000;
/** MultiImage API: "minimum of 2 images and maximum of 20 images". */
const MULTI_IMAGE = { min: 2, max: 20 };
/** Images API: JPG, GIF and PNG. */
const IMAGE_FORMATS = ['jpeg', 'png', 'gif'];
const UPLOAD_PATH = '/dms-uploads/sp/image/';
/**
 * "Only images with a total pixel count (width X height) less than 36,152,320 are allowed"
 * (Images API): a larger one fails its processing. The sandbox reads the size of a PNG only.
 */
const MAX_PIXELS = 36_152_320;
/** The largest upload taken (LinkedIn documents a pixel count, not a size; Fastify's default is 1 MiB). */
const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

/** A PNG's pixel count, from the width and height of its header chunk (IHDR, first), if it has one. */
function pngPixels(bytes: Buffer): number | null {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return bytes.readUInt32BE(16) * bytes.readUInt32BE(20);
}

/** What a post's `content` names, checked: its media's URLs in order, its type, a document's title. */
interface PostContent {
  urls: string[];
  type: 'VIDEO' | 'DOCUMENT' | null;
  title?: string;
}

/** The media a post's `content` names, in order, checked: the images, the video, or the document and its title. */
async function contentMedia(store: Store, owner: string, content: unknown): Promise<PostContent> {
  if (content === undefined) return { urls: [], type: null };
  const body = jsonObject(content, 'content');
  if (body.media !== undefined) {
    const media = jsonObject(body.media, 'content.media');
    const id = media.id;
    const kind = typeof id === 'string' ? /^urn:li:(image|video|document):/.exec(id)?.[1] : undefined;
    if (kind === 'document') {
      if (typeof media.title !== 'string' || media.title.trim() === '') {
        throw linkedin.badParameter('content.media.title is required for a document');
      }
      return { urls: [await availableUpload(store, 'document', owner, id)], type: 'DOCUMENT', title: media.title };
    }
    return kind === 'video'
      ? { urls: [await availableUpload(store, 'video', owner, id)], type: 'VIDEO' }
      : { urls: [await availableUpload(store, 'image', owner, id)], type: null };
  }
  if (body.multiImage !== undefined) {
    const images = jsonObject(body.multiImage, 'content.multiImage').images;
    if (!Array.isArray(images) || images.length < MULTI_IMAGE.min || images.length > MULTI_IMAGE.max) {
      throw linkedinAnswer(
        422,
        'UNPROCESSABLE_ENTITY',
        `content.multiImage.images must hold ${MULTI_IMAGE.min} to ${MULTI_IMAGE.max} images`,
      );
    }
    const urls: string[] = [];
    for (const image of images) urls.push(await availableUpload(store, 'image', owner, jsonObject(image, 'image').id));
    return { urls, type: null };
  }
  throw linkedin.badParameter('content must hold media or multiImage');
}

async function createPostFor(store: Store, who: Caller, body: Record<string, unknown>) {
  const { account: org, urn: owner } = await authoredBy(store, who, String(body.author ?? ''), true);
  if (body.lifecycleState !== 'PUBLISHED') throw linkedin.badParameter('lifecycleState must be PUBLISHED');
  if (!['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'].includes(String(body.visibility))) {
    throw linkedin.badParameter('visibility must be PUBLIC, CONNECTIONS or LOGGED_IN');
  }
  if (jsonObject(body.distribution, 'distribution').feedDistribution === undefined) {
    throw linkedin.badParameter('distribution.feedDistribution is required');
  }
  const commentary = body.commentary ?? '';
  if (typeof commentary !== 'string') throw linkedin.badParameter('commentary must be a string');
  const shown = shownText(commentary);
  if (shown.text.length > MAX_COMMENTARY) {
    throw linkedinAnswer(422, 'UNPROCESSABLE_ENTITY', `commentary is longer than ${MAX_COMMENTARY} characters`);
  }
  const { urls: images, type, title } = await contentMedia(store, owner, body.content);
  const post = await createPost(store, org, {
    caption: shown.text,
    mediaType: type ?? (images.length > 1 ? 'MULTI_IMAGE' : images.length === 1 ? 'IMAGE' : 'TEXT'),
    mediaUrl: images[0] ?? null,
    viaApi: true,
  });
  await recordPublication(
    store,
    post,
    {
      text: post.caption,
      mediaUrls: images,
      type: post.mediaType,
      options: { visibility: body.visibility, ...(title === undefined ? {} : { title }) },
    },
    { author: owner, commentary, cut_short: shown.cut },
  );
  return `urn:li:share:${post.id}`;
}

export function publishingRoutes(app: FastifyInstance, store: Store): void {
  app.post('/rest/images', (request) => initializeSingleUpload(store, request, 'image', UPLOAD_PATH));
  app.get('/rest/images/:urn', (request) => uploadAnswer(store, request, 'image'));
  videoRoutes(app, store);
  documentRoutes(app, store);

  app.post('/rest/posts', async (request, reply) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, publishCall);
    const urn = await createPostFor(store, who, jsonObject(request.body ?? null, 'The body'));
    return reply.code(201).header('x-restli-id', urn).header('x-linkedin-id', urn).send();
  });
}

/** www.linkedin.com: the upload URL takes the image's bytes, with the member's token. */
export function uploadRoutes(app: FastifyInstance, store: Store): void {
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  videoUploadRoutes(app, store, MAX_UPLOAD_BYTES);
  documentUploadRoutes(app, store);
  app.put(`${UPLOAD_PATH}:id`, { bodyLimit: MAX_UPLOAD_BYTES }, async (request, reply) => {
    const image = await uploadOf(store, request, 'image', (request.params as { id: string }).id);
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const format = sniffFormat(bytes.subarray(0, 32));
    if (format === null || !IMAGE_FORMATS.includes(format)) {
      throw linkedinAnswer(400, 'ILLEGAL_ARGUMENT', 'The upload is not a JPG, GIF or PNG image');
    }
    const pixels = format === 'png' ? pngPixels(bytes) : null;
    // Processed from now on: AVAILABLE once container_processing_seconds have passed.
    await setContainerRequest(store, image.id, {
      ...image.request,
      uploadedAt: store.now().getTime(),
      failed: pixels !== null && pixels >= MAX_PIXELS,
      format,
      mediaUrl: `https://media.licdn.com/dms/image/${image.id}.${format}`,
    });
    return reply.code(201).send();
  });
}
