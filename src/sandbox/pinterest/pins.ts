/**
 * Pins: `POST /v5/pins` on one of the user's boards (an image by URL, 2 to 5 images by URL, a video
 * uploaded before), and a board's pins, newest first (`GET /v5/boards/{board_id}/pins`). A pin's
 * title, link and alt text are kept with the container it was made from.
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { param } from '../kit.ts';
import { fetchMedia } from '../media-fetch.ts';
import type { Store } from '../platform.ts';
import type { SandboxPost } from '../schema.ts';
import { recordPublication } from '../store/activity.ts';
import { createContainer, findContainerOfPost, setContainerPost } from '../store/containers.ts';
import { createPost, listPosts } from '../store/posts.ts';
import { callOptions, SCOPE } from './access.ts';
import { ownBoard, pageSize } from './account.ts';
import { pinterestAnswer } from './answers.ts';
import { readyUpload } from './media.ts';

/** Create Pin's limits (its OpenAPI description's maxLength), in characters. */
const LIMITS = { title: 100, description: 800, link: 2048, alt_text: 500 } as const;
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

function objectOf(value: unknown, name: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw pinterestAnswer(400, `${name} must be an object`);
  }
  return value as Record<string, unknown>;
}

async function fetchedImage(url: unknown): Promise<string> {
  if (typeof url !== 'string' || url === '') throw pinterestAnswer(400, 'media_source.url is required');
  const fetched = await fetchMedia(url, ['jpeg', 'png'], MAX_IMAGE_BYTES);
  if (!fetched.ok) throw pinterestAnswer(400, `Sorry! We could not fetch the image at ${url}: ${fetched.detail}`);
  return url;
}

/** What the pin shows, from its media source: its kind and its media's URLs. */
async function pinMedia(
  store: Store,
  accountId: string,
  source: Record<string, unknown>,
): Promise<{ type: string; urls: string[]; cover?: Record<string, unknown> }> {
  switch (source.source_type) {
    case 'image_url':
      return { type: 'IMAGE', urls: [await fetchedImage(source.url)] };
    case 'multiple_image_urls': {
      const items = source.items;
      if (!Array.isArray(items) || items.length < 2 || items.length > 5) {
        throw pinterestAnswer(400, 'media_source.items must hold 2 to 5 images');
      }
      const urls: string[] = [];
      for (const item of items) urls.push(await fetchedImage(objectOf(item, 'an item').url));
      return { type: 'CAROUSEL', urls };
    }
    case 'video_id': {
      // "Keyframe timestamp for cover image (seconds)": an integer, at least 0.
      const frame = source.cover_image_key_frame_time;
      if (frame !== undefined && !(typeof frame === 'number' && Number.isInteger(frame) && frame >= 0)) {
        throw pinterestAnswer(400, 'media_source.cover_image_key_frame_time must be an integer of at least 0');
      }
      return {
        type: 'VIDEO',
        urls: [await readyUpload(store, accountId, String(source.media_id ?? ''))],
        cover: { cover_image_key_frame_time: frame ?? null },
      };
    }
    default:
      throw pinterestAnswer(400, 'media_source.source_type must be image_url, multiple_image_urls or video_id');
  }
}

async function renderPin(store: Store, post: SandboxPost) {
  const made = (await findContainerOfPost(store, post.id))?.request ?? {};
  const text = (name: string) => (typeof made[name] === 'string' ? made[name] : null);
  return {
    id: post.id,
    created_at: post.createdAt.toISOString().slice(0, 19),
    board_id: post.accountId,
    title: text('title'),
    description: post.caption,
    link: text('link'),
    alt_text: text('alt_text'),
    media: {
      media_type: post.mediaType === 'VIDEO' ? 'video' : post.mediaType === 'CAROUSEL' ? 'multiple_images' : 'image',
    },
  };
}

export function pinRoutes(app: FastifyInstance, store: Store): void {
  app.post('/v5/pins', async (request, reply) => {
    const options = callOptions(true);
    const who = await caller(store, request, options);
    // Create Pin: boards:read, boards:write, pins:read and pins:write.
    for (const scope of [SCOPE.boardsRead, SCOPE.boardsWrite, SCOPE.pinsRead, SCOPE.pinsWrite]) {
      requireScope(who, options, scope);
    }
    const body = objectOf(request.body ?? null, 'The body');
    const board = await ownBoard(store, who.account, String(body.board_id ?? ''));
    const fields: Record<string, string> = {};
    for (const [name, limit] of Object.entries(LIMITS)) {
      const value = body[name];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string' || [...value].length > limit) {
        throw pinterestAnswer(400, `${name} must be a string of at most ${limit} characters`);
      }
      fields[name] = value;
    }
    const media = await pinMedia(store, who.account.id, objectOf(body.media_source ?? null, 'media_source'));
    const container = await createContainer(store, board.id, { kind: 'pin', ...fields });
    const post = await createPost(store, board, {
      caption: fields.description ?? '',
      mediaType: media.type,
      mediaUrl: media.urls[0] ?? null,
      viaApi: true,
    });
    await setContainerPost(store, container.id, post.id);
    await recordPublication(store, post, {
      text: fields.description ?? '',
      mediaUrls: media.urls,
      type: media.type,
      options: {
        board_id: board.id,
        title: fields.title ?? null,
        link: fields.link ?? null,
        alt_text: fields.alt_text ?? null,
        ...media.cover,
      },
    });
    return reply.code(201).send(await renderPin(store, post));
  });

  app.get('/v5/boards/:board_id/pins', async (request) => {
    const options = callOptions();
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.boardsRead);
    requireScope(who, options, SCOPE.pinsRead);
    const board = await ownBoard(store, who.account, (request.params as { board_id: string }).board_id);
    const after = param(request, 'bookmark');
    const { posts, more } = await listPosts(store, board.id, {
      limit: pageSize(param(request, 'page_size')),
      ...(after === undefined ? {} : { after }),
    });
    const items = [];
    for (const post of posts) items.push(await renderPin(store, post));
    return { items, bookmark: more ? (posts.at(-1)?.id ?? null) : null };
  });
}
