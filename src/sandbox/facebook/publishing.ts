/**
 * Publishing on a page: a photo (published, or unpublished to attach), and a feed post with
 * a message, a link or attached photos.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { isHttpUrl, param } from '../kit.ts';
import { fetchMedia } from '../media-fetch.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import type { Store } from '../platform.ts';
import { recordPublication } from '../store/activity.ts';
import { createContainer, findContainer, markContainerPublished } from '../store/containers.ts';
import { createPost } from '../store/posts.ts';
import { call, ownPage, publishCall, SCOPE, targetId } from './access.ts';

/** Pages' photo guide: "less than 4 MB and saved as JPG, PNG, GIF, TIFF, HEIF, or WebP". */
const MAX_PHOTO_BYTES = 4 * 1024 * 1024;

function jsonValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** The photo id of one `attached_media` entry (`{"media_fbid":"..."}`, as JSON text or parsed). */
function mediaFbid(value: unknown, index: number): string {
  const id = (jsonValue(value) as { media_fbid?: unknown } | undefined)?.media_fbid;
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw graph.badParameter(`attached_media[${index}] must be {"media_fbid":"<photo id>"}`);
  }
  return String(id);
}

/** The `attached_media[N]={"media_fbid":"..."}` parameters of a feed post (a JSON array is accepted too). */
function attachedMedia(request: FastifyRequest): string[] {
  const sources = {
    ...(request.query as Record<string, unknown>),
    ...((request.body ?? {}) as Record<string, unknown>),
  };
  const whole = jsonValue(sources.attached_media);
  if (sources.attached_media !== undefined && !Array.isArray(whole)) {
    throw graph.badParameter('attached_media must be a JSON array of {"media_fbid"}');
  }
  const entries: [number, unknown][] = Array.isArray(whole) ? whole.map((item, i) => [i, item]) : [];
  for (const [name, value] of Object.entries(sources)) {
    const indexed = /^attached_media\[(\d+)\]$/.exec(name);
    if (indexed) entries.push([Number(indexed[1]), value]);
  }
  return entries.sort((a, b) => a[0] - b[0]).map(([i, value]) => mediaFbid(value, i));
}

export function publishingRoutes(app: FastifyInstance, store: Store): void {
  app.post('/:version/:id/photos', async (request) => {
    const published = param(request, 'published') !== 'false';
    const who = await caller(store, request, published ? publishCall : call);
    const page = ownPage(who, targetId(request, who));
    requireScope(who, call, SCOPE.managePosts);
    const url = param(request, 'url');
    if (url === undefined) throw graph.badParameter('The parameter url is required (uploads are not offered)');
    if (!isHttpUrl(url)) throw graph.badParameter('url must be a public URL');
    // Pages' photo guide: "less than 4 MB and saved as JPG, PNG, GIF, TIFF, HEIF, or WebP";
    // Graph fetches the URL while answering.
    if (!(await fetchMedia(url, ['jpeg', 'png', 'gif', 'webp'], MAX_PHOTO_BYTES)).ok) {
      throw graphAnswer(400, 324, '(#324) Missing or invalid image file');
    }
    const caption = param(request, 'caption') ?? param(request, 'message') ?? '';
    const photo = await createContainer(store, page.id, { type: 'photo', url, caption, published });
    if (!published) return { id: photo.id };
    const post = await createPost(store, page, { caption, mediaType: 'IMAGE', mediaUrl: url, viaApi: true });
    await markContainerPublished(store, photo.id, post.id);
    await recordPublication(
      store,
      post,
      { text: caption, mediaUrls: [url], type: 'IMAGE', options: {} },
      { message: caption, photo_ids: [photo.id] },
    );
    return { id: photo.id, post_id: post.id };
  });

  app.post('/:version/:id/feed', async (request) => {
    const who = await caller(store, request, publishCall);
    const page = ownPage(who, targetId(request, who));
    requireScope(who, call, SCOPE.managePosts);
    const message = param(request, 'message') ?? '';
    const link = param(request, 'link');
    const photoIds = attachedMedia(request);
    if (message === '' && link === undefined && photoIds.length === 0) {
      throw graph.badParameter('Missing message or attachment');
    }
    const urls: string[] = [];
    for (const photoId of photoIds) {
      const photo = await findContainer(store, photoId);
      if (!photo || photo.accountId !== page.id || photo.request.type !== 'photo') throw graph.notFound(photoId);
      if (photo.publishedPostId !== null) {
        throw graph.badParameter(`attached_media ${photoId} is already published`);
      }
      urls.push(String(photo.request.url));
    }
    if (link !== undefined && !isHttpUrl(link)) throw graph.badParameter('link should represent a valid URL');
    const type =
      photoIds.length === 0 ? (link === undefined ? 'TEXT' : 'LINK') : photoIds.length === 1 ? 'IMAGE' : 'ALBUM';
    const post = await createPost(store, page, {
      caption: message,
      mediaType: type,
      mediaUrl: urls[0] ?? null,
      viaApi: true,
    });
    for (const photoId of photoIds) {
      if (!(await markContainerPublished(store, photoId, post.id))) {
        throw graph.badParameter(`attached_media ${photoId} is already published`);
      }
    }
    await recordPublication(
      store,
      post,
      { text: message, mediaUrls: urls, type, options: link === undefined ? {} : { link } },
      { message, photo_ids: photoIds, link: link ?? null },
    );
    return { id: post.id };
  });
}
