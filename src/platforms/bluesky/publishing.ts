/**
 * Publishing on Bluesky: a post is one app.bsky.feed.post record in the account's repository
 * (com.atproto.repo.createRecord), a thread one record per post, each a reply to the one before
 * it with the first as its root. Making the container uploads the images as blobs
 * (com.atproto.repo.uploadBlob) and chooses every record's key (a TID), before any record is
 * written; the container holds them. A video is sent to Bluesky's video service first (video.ts),
 * an item read until the service has stored it as a blob, which the container then names. Publishing writes the records in order under those keys: a
 * key already taken is a record an earlier try wrote (its answer lost, or the run stopped
 * midway), which is read back (com.atproto.repo.getRecord) instead of written again. So no post is
 * made twice, and a thread cut short resumes where it stopped.
 */
import { isValidDid, isValidTid, parseAtUriString } from '@atproto/syntax';
import { invalidRequest } from '../errors.ts';
import { record, requiredText } from '../http.ts';
import { readMedia } from '../media-source.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import {
  PlatformError,
  type PublishedPost,
  type PublishingCapability,
  type PublishRequest,
  type RequestMedium,
} from '../types.ts';
import { type BlueskyContext, platform } from './api.ts';
import { BLUESKY_MAX_IMAGE_BYTES, BLUESKY_OPTIONS } from './definition.ts';
import { facetsOf } from './facets.ts';
import { handleDid } from './identity.ts';
import { blueskyPublishRules } from './publish-rules.ts';
import { type BlueskySession, openSession } from './session.ts';
import { newTid } from './tid.ts';
import { isVideoItem, uploadVideo, videoJob } from './video.ts';

const COLLECTION = 'app.bsky.feed.post';
const TRANSFER_TIMEOUT_MS = 60_000;

interface ContainerImage {
  /** The blob as uploadBlob answered it, named as is by the record. */
  blob: Record<string, unknown>;
  alt: string;
  aspectRatio?: { width: number; height: number };
}

interface ContainerPost {
  rkey: string;
  text: string;
  images: ContainerImage[];
  /** The first post's video, as the video service stored it (app.bsky.embed.video). */
  video?: ContainerImage;
}

/** What a container holds: its posts in order (a thread's after the first), and what they all share. */
interface PostContainer {
  posts: ContainerPost[];
  langs?: string[];
  card?: { uri: string; title: string; description: string; thumb?: Record<string, unknown> };
}

function containerOf(id: string): PostContainer {
  try {
    const parsed = JSON.parse(Buffer.from(id, 'base64url').toString('utf8')) as PostContainer;
    if (Array.isArray(parsed.posts) && parsed.posts.length > 0 && parsed.posts.every((p) => isValidTid(p.rkey))) {
      return parsed;
    }
  } catch {
    // Below.
  }
  throw invalidRequest(platform, `not a container of this adapter: ${id}`);
}

/** "app.bsky.feed.post": a post's link on bsky.app. */
export function permalinkOf(did: string, rkey: string): string {
  return `https://bsky.app/profile/${did}/post/${rkey}`;
}

const uriOf = (did: string, rkey: string) => `at://${did}/${COLLECTION}/${rkey}`;

/** The repository and record key of a post's at:// URI as this adapter makes them, or null when `uri` is not one. */
export function postOfUri(uri: string): { did: string; rkey: string } | null {
  const parsed = parseAtUriString(uri);
  if (!parsed.success) return null;
  const { authority, collection, rkey, query, hash } = parsed.value;
  // The lexicon keys a post by a TID; a handle for authority would name whoever holds it later.
  if (collection !== COLLECTION || rkey === undefined || !isValidTid(rkey) || !isValidDid(authority)) return null;
  return query === undefined && hash === undefined ? { did: authority, rkey } : null;
}

export function blueskyPublishing(context: BlueskyContext): PublishingCapability {
  const { api, now, options } = context;

  /** The service's media file at `url`: its bytes and type, within the blob limit. */
  async function mediaBytes(url: string): Promise<{ bytes: Buffer; type: string }> {
    const { bytes, type } = await readMedia(url, {
      dispatcher: options.dispatcher,
      timeoutMs: TRANSFER_TIMEOUT_MS,
      failed: (why) => new PlatformError('transient', `the media could not be read for Bluesky: ${why}`, { platform }),
      maxBytes: BLUESKY_MAX_IMAGE_BYTES,
      tooLarge: () =>
        invalidRequest(platform, `an image has more than ${BLUESKY_MAX_IMAGE_BYTES} bytes, Bluesky's blob limit`),
    });
    return { bytes, type: type ?? 'application/octet-stream' };
  }

  async function uploadBlob(session: BlueskySession, medium: RequestMedium): Promise<Record<string, unknown>> {
    const { bytes, type } = await mediaBytes(medium.url);
    const answer = await api.xrpc(session, 'POST', 'com.atproto.repo.uploadBlob', {
      bytes: { body: bytes, contentType: type },
    });
    const blob = record(answer.blob);
    if (blob.$type !== 'blob')
      throw new PlatformError('transient', 'bluesky answered an upload without its blob', { platform });
    return blob;
  }

  /** A medium as an embed names it: its blob, alt text and (where known) aspect ratio. */
  function embedded(blob: Record<string, unknown>, medium: RequestMedium, alt: string): ContainerImage {
    const { width, height } = medium;
    return {
      blob,
      alt,
      ...(typeof width === 'number' && typeof height === 'number' && width > 0 && height > 0
        ? { aspectRatio: { width, height } }
        : {}),
    };
  }

  async function uploadImage(session: BlueskySession, medium: RequestMedium, alt: string): Promise<ContainerImage> {
    return embedded(await uploadBlob(session, medium), medium, alt);
  }

  /** The record a container's post is written as; `reply` for a thread's later posts. */
  async function recordOf(
    container: PostContainer,
    post: ContainerPost,
    reply: { root: StrongRef; parent: StrongRef } | null,
  ): Promise<Record<string, unknown>> {
    // A handle that does not resolve stays text.
    const facets = await facetsOf(post.text, (handle) => handleDid(api, handle).catch(() => null));
    const first = reply === null;
    let embed: Record<string, unknown> | undefined;
    if (post.video !== undefined) {
      const { blob, alt, aspectRatio } = post.video;
      embed = {
        $type: 'app.bsky.embed.video',
        video: blob,
        ...(alt === '' ? {} : { alt }),
        ...(aspectRatio ? { aspectRatio } : {}),
      };
    } else if (post.images.length > 0) {
      embed = {
        $type: 'app.bsky.embed.images',
        images: post.images.map((i) => ({
          image: i.blob,
          alt: i.alt,
          ...(i.aspectRatio ? { aspectRatio: i.aspectRatio } : {}),
        })),
      };
    } else if (first && container.card !== undefined) {
      embed = { $type: 'app.bsky.embed.external', external: container.card };
    }
    return {
      $type: COLLECTION,
      text: post.text,
      createdAt: now().toISOString(),
      ...(facets.length === 0 ? {} : { facets }),
      ...(container.langs === undefined ? {} : { langs: container.langs }),
      ...(embed === undefined ? {} : { embed }),
      ...(reply === null ? {} : { reply }),
    };
  }

  /** The record under `rkey` (its strong ref), or null when the repository has none. */
  async function readBack(session: BlueskySession, did: string, rkey: string): Promise<StrongRef | null> {
    try {
      const answer = await api.xrpc(session, 'GET', 'com.atproto.repo.getRecord', {
        query: { repo: did, collection: COLLECTION, rkey },
      });
      return { uri: requiredText(platform, answer.uri, 'uri'), cid: requiredText(platform, answer.cid, 'cid') };
    } catch (error) {
      if (error instanceof PlatformError && error.detail.code === 'RecordNotFound') return null;
      throw error;
    }
  }

  /** Writes the post under its key, or finds it there from an earlier try. */
  async function write(
    session: BlueskySession,
    did: string,
    post: ContainerPost,
    make: () => Promise<Record<string, unknown>>,
  ): Promise<StrongRef> {
    const found = await readBack(session, did, post.rkey);
    if (found !== null) return found;
    try {
      const answer = await api.xrpc(session, 'POST', 'com.atproto.repo.createRecord', {
        json: { repo: did, collection: COLLECTION, rkey: post.rkey, record: await make() },
      });
      return { uri: requiredText(platform, answer.uri, 'uri'), cid: requiredText(platform, answer.cid, 'cid') };
    } catch (error) {
      // The key taken meanwhile: a try running beside this one wrote it.
      if (error instanceof PlatformError && error.kind === 'invalid_request') {
        const again = await readBack(session, did, post.rkey);
        if (again !== null) return again;
      }
      throw error;
    }
  }

  function published(did: string, container: PostContainer): PublishedPost {
    const rkey = (container.posts[0] as ContainerPost).rkey;
    return { id: uriOf(did, rkey), permalink: permalinkOf(did, rkey) };
  }

  const optionMedium = (request: PublishRequest, id: string): RequestMedium => {
    const medium = request.optionMedia?.[id];
    if (medium === undefined) throw invalidRequest(platform, `the option's medium ${id} was not given`);
    return medium;
  };

  /** The video's blob, once the video service has stored it (its item read finished). */
  async function videoOf(items: readonly string[], medium: RequestMedium, alt: string): Promise<ContainerImage> {
    const [item] = items;
    if (item === undefined || items.length !== 1 || !isVideoItem(item)) {
      throw invalidRequest(platform, "a post's video is sent to the video service before the post is made");
    }
    const { status, blob } = await videoJob(context, item);
    if (blob === null) {
      // Not yet stored: the item is read again, as any item still in progress.
      throw new PlatformError('transient', `bluesky: the video is not ready: ${status.message ?? status.state}`, {
        platform,
      });
    }
    return embedded(blob, medium, alt);
  }

  async function postsOf(
    session: BlueskySession,
    request: PublishRequest,
    items: readonly string[],
  ): Promise<PostContainer> {
    const chosen = optionsOf(BLUESKY_OPTIONS, request.options);
    const alts = chosen.alt_texts ?? [];
    const first: ContainerPost = {
      rkey: newTid(now()),
      text: request.text ?? '',
      images: [],
    };
    const [video] = request.media;
    if (video?.type === 'video') first.video = await videoOf(items, video, alts[0] ?? '');
    else {
      for (const [index, medium] of request.media.entries())
        first.images.push(await uploadImage(session, medium, alts[index] ?? ''));
    }
    const posts = [first];
    for (const later of chosen.thread ?? []) {
      const images: ContainerImage[] = [];
      for (const [index, id] of (later.media_ids ?? []).entries())
        images.push(await uploadImage(session, optionMedium(request, id), later.alt_texts?.[index] ?? ''));
      // Keys are ordered by time: each later post's after the one before.
      let rkey = newTid(now());
      while (rkey <= (posts[posts.length - 1] as ContainerPost).rkey)
        rkey = newTid(new Date(now().getTime() + posts.length));
      posts.push({ rkey, text: later.text, images });
    }
    let card: PostContainer['card'];
    if (chosen.link_card !== undefined) {
      const { uri, title, description, media_ids: picture = [] } = chosen.link_card;
      const [pictureId] = picture;
      card = {
        uri,
        title,
        description,
        ...(pictureId === undefined ? {} : { thumb: await uploadBlob(session, optionMedium(request, pictureId)) }),
      };
    }
    return {
      posts,
      ...(chosen.languages === undefined ? {} : { langs: chosen.languages }),
      ...(card === undefined ? {} : { card }),
    };
  }

  return {
    checkPublish: blueskyPublishRules,
    async publishingQuota() {
      // Bluesky states write limits per account (points per hour and day), but no read of what is left.
      return null;
    },
    async createCarouselItems(credentials, request) {
      const [video] = request.media;
      if (video?.type !== 'video') return null;
      refuseProblems(platform, blueskyPublishRules(draftOf(request)));
      return [await uploadVideo(context, openSession(credentials.accessToken), credentials.platformUserId, video)];
    },
    async createContainer(credentials, request, items = []) {
      const container = await postsOf(openSession(credentials.accessToken), request, items);
      return { containerId: Buffer.from(JSON.stringify(container)).toString('base64url') };
    },
    async containerStatus(_credentials, containerId) {
      if (isVideoItem(containerId)) return (await videoJob(context, containerId)).status;
      return { state: 'finished' };
    },
    async publishContainer(credentials, containerId) {
      const container = containerOf(containerId);
      const session = openSession(credentials.accessToken);
      const did = credentials.platformUserId;
      let root: StrongRef | null = null;
      let parent: StrongRef | null = null;
      for (const post of container.posts) {
        const reply: { root: StrongRef; parent: StrongRef } | null =
          root === null || parent === null ? null : { root, parent };
        const written: StrongRef = await write(session, did, post, () => recordOf(container, post, reply));
        root ??= written;
        parent = written;
      }
      return published(did, container);
    },
    async findPublished(credentials, containerId) {
      // Published once the last post is there (a thread cut short is published on by publishContainer).
      const container = containerOf(containerId);
      const last = container.posts[container.posts.length - 1] as ContainerPost;
      const found = await readBack(openSession(credentials.accessToken), credentials.platformUserId, last.rkey);
      return found === null ? null : published(credentials.platformUserId, container);
    },
  };
}

interface StrongRef {
  uri: string;
  cid: string;
}
