/** Facebook's stand-in for a publishing container: the post itself, written into the container id. */
import { invalidRequest } from '../errors.ts';
import { list, num, record, str } from '../http.ts';
import { isHttpUrl } from '../publish-checks.ts';
import type { AccountCredentials } from '../types.ts';

/** A page post's fields as the service reads one: listed with its comments, or found as what a container became. */
export const POST_FIELDS = 'id,message,created_time,permalink_url';

/**
 * Facebook has no publishing containers: the "container" is the post itself, written into
 * its id (photos already uploaded unpublished), so publishing needs no state of ours.
 */
const CONTAINER_PREFIX = 'fbpost.';

export interface PendingPost {
  page: string;
  message: string | null;
  photoIds: string[];
  link: string | null;
  /** Unix seconds the container was made (absent in containers made before findPublished). */
  at: number | null;
}

export function encodeContainer(post: PendingPost): string {
  const json = JSON.stringify({
    page: post.page,
    message: post.message,
    photo_ids: post.photoIds,
    ...(post.link !== null ? { link: post.link } : {}),
    ...(post.at !== null ? { at: post.at } : {}),
  });
  return `${CONTAINER_PREFIX}${Buffer.from(json, 'utf8').toString('base64url')}`;
}

/** The post a container id stands for, or null when the id is not one this adapter made. */
function decodeContainer(containerId: string): PendingPost | null {
  if (!containerId.startsWith(CONTAINER_PREFIX)) return null;
  const encoded = containerId.slice(CONTAINER_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const body = record(parsed);
  const page = str(body.page);
  const ids = list(body.photo_ids);
  const photoIds = ids.map(str).filter((id): id is string => id !== null && /^[0-9A-Za-z_]+$/.test(id));
  const message = body.message === null || body.message === undefined ? null : str(body.message);
  const link = isHttpUrl(body.link) ? body.link : null;
  const at = num(body.at);
  if (page === null || !/^[0-9A-Za-z_]+$/.test(page) || photoIds.length !== ids.length) return null;
  if (message === null && photoIds.length === 0 && link === null) return null;
  return { page, message, photoIds, link, at };
}

/** The post a container id stands for, made for the page of `credentials`; otherwise invalid_request. */
export function pendingPost(credentials: AccountCredentials, containerId: string): PendingPost {
  const post = decodeContainer(containerId);
  if (post === null) throw invalidRequest('facebook', `not a Facebook post container: ${containerId.slice(0, 40)}`);
  if (post.page !== credentials.platformUserId) {
    throw invalidRequest('facebook', 'the container was made for another page');
  }
  return post;
}
