/**
 * Meta's container-and-publish steps, as Instagram and Threads take them: create a container
 * (one per carousel item, then the carousel's), read its status, publish it, read the new post's
 * permalink, find what a container became after a crash, and read the publishing quota.
 */
import { invalidRequest } from '../errors.ts';
import { list, num, record, str } from '../http.ts';
import {
  type AccountCredentials,
  type ContainerState,
  type ContainerStatus,
  type Platform,
  PlatformError,
  type PublishedPost,
  type PublishingCapability,
  type PublishingQuota,
  type UnfindablePost,
} from '../types.ts';
import { type ContainerRef, matchPublished, recentPostOf, requireContainerRef } from './container-refs.ts';
import { idOf } from './graph-answers.ts';
import type { GraphClient } from './graph-client.ts';

type Fields = Record<string, string | undefined>;

/** A container made on the account's `edge` (Instagram's `media`, Threads' `threads`): its id. */
export async function createContainer(
  graph: GraphClient,
  { platformUserId, accessToken }: AccountCredentials,
  edge: string,
  fields: Fields,
): Promise<string> {
  return idOf(graph.platform, await graph.post(`/${platformUserId}/${edge}`, accessToken, fields));
}

/** A carousel's item containers (`is_carousel_item`), in order: each is processed before the carousel's may be made. */
export async function createCarouselItems(
  create: (fields: Fields) => Promise<string>,
  items: readonly Fields[],
): Promise<string[]> {
  const children: string[] = [];
  for (const item of items) children.push(await create({ ...item, is_carousel_item: 'true' }));
  return children;
}

/**
 * The carousel's own container, naming its items' containers (`children`), which must be
 * finished: Instagram's and Threads' publishing guides make the carousel's container only once
 * every item's status is FINISHED.
 */
export async function createCarousel(
  create: (fields: Fields) => Promise<string>,
  platform: Platform,
  itemContainerIds: readonly string[] | undefined,
  count: number,
  fields: Fields,
): Promise<string> {
  if (itemContainerIds === undefined || itemContainerIds.length !== count) {
    throw invalidRequest(platform, `a carousel of ${count} items is made of their ${count} finished containers`);
  }
  return create({ media_type: 'CAROUSEL', children: itemContainerIds.join(','), ...fields });
}

const CONTAINER_STATES: Record<string, ContainerState> = {
  IN_PROGRESS: 'in_progress',
  FINISHED: 'finished',
  PUBLISHED: 'published',
  ERROR: 'failed',
  EXPIRED: 'expired',
};

/**
 * A container's status, read once. `fields` names where the platform puts its code and its
 * reason (Instagram: `status_code` and `status`, Threads: `status` and `error_message`); the
 * reason is kept for a failed or expired container only, as otherwise it repeats the code.
 */
export async function readContainerStatus(
  graph: GraphClient,
  accessToken: string,
  containerId: string,
  fields: { code: string; reason: string; label: string },
): Promise<ContainerStatus> {
  const body = await graph.get(`/${containerId}`, accessToken, { fields: `${fields.code},${fields.reason}` });
  const code = str(body[fields.code]) ?? '';
  const state = CONTAINER_STATES[code];
  if (state === undefined) {
    throw new PlatformError('transient', `${graph.platform}: unknown container status ${JSON.stringify(code)}`, {
      platform: graph.platform,
    });
  }
  if (state === 'in_progress') return { state, message: `${fields.label} is still processing the media (IN_PROGRESS)` };
  const message = str(body[fields.reason]);
  return message !== null && (state === 'failed' || state === 'expired') ? { state, message } : { state };
}

/** Publishes a container on the account's `edge` (`media_publish`, `threads_publish`): the new post's id. */
export async function publishContainer(
  graph: GraphClient,
  { platformUserId, accessToken }: AccountCredentials,
  edge: string,
  containerId: string,
): Promise<string> {
  const published = await graph.call({
    method: 'POST',
    url: graph.url(`/${platformUserId}/${edge}`),
    query: { creation_id: containerId },
    form: { access_token: accessToken },
  });
  return idOf(graph.platform, published);
}

/**
 * A new post's permalink (its `field`), read after it was published: best effort (null when the
 * read fails), since the post exists whatever this read answers, and failing the publication
 * would make a retry publish it twice.
 */
export async function permalinkAfterPublish(
  graph: GraphClient,
  accessToken: string,
  postId: string,
  field = 'permalink',
): Promise<string | null> {
  try {
    const value = (await graph.get(`/${postId}`, accessToken, { fields: field }))[field];
    return typeof value === 'string' && value !== '' ? value : null;
  } catch (error) {
    if (error instanceof PlatformError) return null;
    throw error;
  }
}

/** Publishes a container, then reads the new post's permalink. */
async function publishWithPermalink(
  graph: GraphClient,
  credentials: AccountCredentials,
  edge: string,
  containerId: string,
): Promise<PublishedPost> {
  const id = await publishContainer(graph, credentials, edge, containerId);
  return { id, permalink: await permalinkAfterPublish(graph, credentials.accessToken, id) };
}

/** Where an account's recent posts are listed (`edge`, `fields`, the first `max`), and where a post's text and time are. */
export interface RecentPosts {
  edge: string;
  fields: string;
  max: number;
  textField: string;
  timeField?: string;
}

/**
 * The earliest of the account's recent posts published since the container was made (`at`,
 * Unix seconds) with the container's text digest: the post the container became, as a
 * container does not name it.
 */
export async function recentPostMatching(
  graph: GraphClient,
  { platformUserId, accessToken }: AccountCredentials,
  ref: ContainerRef & { at: number },
  posts: RecentPosts,
): Promise<PublishedPost | null> {
  const items = await graph.getAll(
    `/${platformUserId}/${posts.edge}`,
    accessToken,
    { fields: posts.fields, limit: posts.max },
    posts.max,
  );
  const match = matchPublished(
    items.map((item) => recentPostOf(item, posts.textField, posts.timeField)).filter((p) => p !== null),
    ref,
  );
  return match === null ? null : { id: match.id, permalink: match.permalink };
}

/** Where the post a container became is listed: the account's `edge`, its text under `textField`. */
export interface PostsEdge {
  edge: string;
  textField: string;
}

/**
 * The post a published container became, among the account's 50 latest on `edge` (its text under
 * `textField`): one with the container's text, published since the container was made.
 */
async function findContainerPost(
  graph: GraphClient,
  credentials: AccountCredentials,
  ref: ContainerRef,
  look: PostsEdge,
): Promise<PublishedPost | null> {
  const { at } = ref;
  if (at === null) {
    throw invalidRequest(
      graph.platform,
      'the container was published, but its reference does not say what to look for',
    );
  }
  const posts = {
    edge: look.edge,
    fields: `id,${look.textField},permalink,timestamp`,
    max: 50,
    textField: look.textField,
  };
  return recentPostMatching(graph, credentials, { ...ref, at }, posts);
}

/**
 * The account's publishing quota on `edge` (Instagram's content_publishing_limit, Threads'
 * threads_publishing_limit): `{"data":[{quota_usage, config:{quota_total, quota_duration}}]}`.
 */
async function readQuota(
  graph: GraphClient,
  { platformUserId, accessToken }: AccountCredentials,
  edge: string,
): Promise<PublishingQuota> {
  const body = await graph.get(`/${platformUserId}/${edge}`, accessToken, { fields: 'quota_usage,config' });
  const entry = record(list(body.data)[0]);
  const config = record(entry.config);
  const used = num(entry.quota_usage);
  const limit = num(config.quota_total);
  const windowSeconds = num(config.quota_duration);
  if (used === null || limit === null || windowSeconds === null) {
    throw new PlatformError('transient', `${graph.platform} answered its publishing limit without usage and config`, {
      platform: graph.platform,
    });
  }
  return { used, limit, windowSeconds };
}

/** Where a platform keeps each container step (Instagram's API and Threads' name them differently). */
export interface ContainerApi {
  /** Where a container's status code and its reason are, and the platform's name for messages. */
  status: { code: string; reason: string; label: string };
  /** The account's edge that publishes a container. */
  publishEdge: string;
  /** The account's edge that answers its publishing quota. */
  quotaEdge: string;
  /** Where the post a container of this kind became is looked for, or why it cannot be. */
  postsOf(ref: ContainerRef): PostsEdge | UnfindablePost;
}

/** The steps after a container is made: its status, publishing it, the quota, and what it became after a crash. */
export function containerSteps(
  graph: GraphClient,
  api: ContainerApi,
): Pick<PublishingCapability, 'containerStatus' | 'publishContainer' | 'publishingQuota' | 'findPublished'> {
  const idOfRef = (containerId: string) => requireContainerRef(graph.platform, containerId).id;
  const status = (accessToken: string, containerId: string) =>
    readContainerStatus(graph, accessToken, idOfRef(containerId), api.status);
  return {
    containerStatus: ({ accessToken }, containerId) => status(accessToken, containerId),
    publishContainer: (credentials, containerId) =>
      publishWithPermalink(graph, credentials, api.publishEdge, idOfRef(containerId)),
    publishingQuota: (credentials) => readQuota(graph, credentials, api.quotaEdge),
    async findPublished(credentials, containerId) {
      const ref = requireContainerRef(graph.platform, containerId);
      if ((await status(credentials.accessToken, containerId)).state !== 'published') return null;
      const look = api.postsOf(ref);
      return 'unfindable' in look ? look : findContainerPost(graph, credentials, ref, look);
    },
  };
}
