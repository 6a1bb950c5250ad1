/**
 * A location's local posts (Google My Business API v4 on mybusiness.googleapis.com):
 * localPosts.create, .get and .list, in Google's LocalPost shape. A post made through the API is
 * PROCESSING for `container_processing_seconds` on the sandbox clock, then LIVE, or REJECTED
 * when `google_business_post_review` says so; a post made for a new location is LIVE.
 */
import type { FastifyInstance } from 'fastify';
import { googleRpc as google } from '../google/answers.ts';
import { isHttpUrl, param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount, SandboxPost } from '../schema.ts';
import { recordPublication } from '../store/activity.ts';
import {
  CONTAINER_PROCESSING_SECONDS,
  createContainer,
  findContainerOfPost,
  setContainerPost,
} from '../store/containers.ts';
import { createPost, findPost, listPosts } from '../store/posts.ts';
import { oneOf, waitMs } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { businessCaller, callerLocation, publishCall } from './access.ts';

/** What Google's review makes of the next local posts: `live` (after their processing) or `rejected`. */
export const POST_REVIEW = oneOf('google_business_post_review', ['live', 'rejected'] as const);

const TOPIC_TYPES = new Set(['STANDARD', 'EVENT', 'OFFER', 'ALERT']);
const ACTION_TYPES = new Set(['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'GET_OFFER', 'CALL']);
/** A post's description: 1,500 characters (Business Profile Help). */
const MAX_SUMMARY = 1500;
/** localPosts.list: "The default value is 20. Minimum is 1, and maximum page size is 100." */
const LIST_PAGE = { fallback: 20, max: 100 };

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value !== null && typeof value === 'object' ? (value as Json) : {});

/** Google's refusal of a LocalPost it cannot take (400 INVALID_ARGUMENT), or null to take it. */
function refusal(body: Json): string | null {
  const topic = body.topicType;
  if (typeof topic !== 'string' || !TOPIC_TYPES.has(topic)) return 'Invalid topic type.';
  const summary = typeof body.summary === 'string' ? body.summary : '';
  const media = Array.isArray(body.media) ? body.media.map(obj) : [];
  if ([...summary].length > MAX_SUMMARY) return `The summary is longer than ${MAX_SUMMARY} characters.`;
  if (topic === 'STANDARD' && summary === '' && media.length === 0) return 'A post needs a summary or a photo.';
  for (const item of media) {
    if (!['PHOTO', 'VIDEO'].includes(String(item.mediaFormat)) || !isHttpUrl(item.sourceUrl as string | undefined)) {
      return 'Invalid media item: mediaFormat PHOTO or VIDEO and an http(s) sourceUrl are required.';
    }
  }
  if (topic === 'EVENT' || topic === 'OFFER') {
    const event = obj(body.event);
    const schedule = obj(event.schedule);
    if (typeof event.title !== 'string' || event.title === '') return 'The event title is required.';
    if (schedule.startDate === undefined || schedule.endDate === undefined) return 'The event schedule is required.';
  }
  if (body.callToAction !== undefined && topic !== 'OFFER') {
    const action = obj(body.callToAction);
    if (!ACTION_TYPES.has(String(action.actionType))) return 'Invalid call to action type.';
    if (action.actionType !== 'CALL' && !isHttpUrl(action.url as string | undefined))
      return 'The call to action needs a url.';
  }
  return null;
}

/** A local post's state: REJECTED by review, PROCESSING for its processing time, then LIVE. */
async function stateOf(store: Store, made: { createdAt: Date; failure: string | null } | undefined): Promise<string> {
  if (made === undefined) return 'LIVE';
  if (made.failure !== null) return 'REJECTED';
  const processing = waitMs(await getSetting(store, CONTAINER_PROCESSING_SECONDS));
  return store.now().getTime() - made.createdAt.getTime() < processing ? 'PROCESSING' : 'LIVE';
}

async function renderPost(store: Store, location: SandboxAccount, post: SandboxPost) {
  const container = await findContainerOfPost(store, post.id);
  const asked = obj(container?.request.localPost);
  const created = post.createdAt.toISOString();
  return {
    ...asked,
    name: `${location.id}/localPosts/${post.id}`,
    languageCode: 'en',
    ...(post.caption === '' ? {} : { summary: post.caption }),
    createTime: created,
    updateTime: created,
    state: await stateOf(store, container),
    searchUrl: post.permalink,
    topicType: post.mediaType,
  };
}

export function localPostRoutes(app: FastifyInstance, store: Store): void {
  const base = '/v4/accounts/:account/locations/:location/localPosts';
  const locationOf = (request: { params: unknown }) => {
    const { account, location } = request.params as { account: string; location: string };
    return `accounts/${account}/locations/${location}`;
  };

  app.post(base, async (request) => {
    const who = await businessCaller(store, request, publishCall);
    const location = await callerLocation(store, who, locationOf(request));
    const body = obj(request.body);
    const refused = refusal(body);
    if (refused !== null) throw google.badParameter(refused);
    const review = await getSetting(store, POST_REVIEW);
    const media = Array.isArray(body.media) ? body.media.map(obj) : [];
    const { name: _name, state: _state, createTime: _c, updateTime: _u, searchUrl: _s, ...localPost } = body;
    const container = await createContainer(
      store,
      location.id,
      { kind: 'local_post', client_id: who.token.clientId, localPost },
      review === 'rejected' ? 'REJECTED' : null,
    );
    const post = await createPost(store, location, {
      caption: typeof body.summary === 'string' ? body.summary : '',
      mediaType: String(body.topicType),
      mediaUrl: typeof media[0]?.sourceUrl === 'string' ? media[0].sourceUrl : null,
      viaApi: true,
    });
    await setContainerPost(store, container.id, post.id);
    const { summary: _summary, topicType: _topic, media: _media, ...options } = localPost;
    await recordPublication(store, post, {
      text: post.caption,
      mediaUrls: media.map((m) => String(m.sourceUrl)),
      type: post.mediaType,
      options,
    });
    return renderPost(store, location, post);
  });

  app.get(base, async (request) => {
    const who = await businessCaller(store, request);
    const location = await callerLocation(store, who, locationOf(request));
    const raw = param(request, 'pageSize');
    const size = raw === undefined ? LIST_PAGE.fallback : Number(raw);
    if (!Number.isInteger(size) || size < 1 || size > LIST_PAGE.max) {
      throw google.badParameter(`Invalid page size ${raw}: from 1 to ${LIST_PAGE.max}.`);
    }
    const after = param(request, 'pageToken');
    const { posts, more } = await listPosts(store, location.id, { limit: size, ...(after ? { after } : {}) });
    const last = posts.at(-1);
    return {
      localPosts: await Promise.all(posts.map((p) => renderPost(store, location, p))),
      ...(more && last !== undefined ? { nextPageToken: last.id } : {}),
    };
  });

  app.get(`${base}/:post`, async (request) => {
    const who = await businessCaller(store, request);
    const location = await callerLocation(store, who, locationOf(request));
    const { post: id } = request.params as { post: string };
    const post = await findPost(store, id);
    if (post === undefined || post.accountId !== location.id) {
      throw google.notFound(`${location.id}/localPosts/${id}`);
    }
    return renderPost(store, location, post);
  });
}
