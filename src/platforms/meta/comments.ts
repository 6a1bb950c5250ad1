/** What reading comments shares on Meta's platforms: recent posts with their comments, one post, each comment's time. */
import { type PlatformRequest, record } from '../http.ts';
import {
  type Platform,
  type PlatformComment,
  PlatformError,
  type PlatformPostSummary,
  type RecentComments,
} from '../types.ts';
import { graphDate, isGone, postSummaryOf, requiredPostSummary, requireSuccess } from './graph-answers.ts';
import type { GraphClient } from './graph-client.ts';

/** Where an account's posts are listed, and where a post's text and time are in the answer. */
export interface PostsList {
  path: string;
  query: PlatformRequest['query'];
  textField: string;
  timeField?: string;
}

/**
 * The account's `max` most recent posts and their comments (and replies), newest first, each
 * post's comments read by `commentsOf`, with the highest usage the calls' headers reported.
 */
export async function readRecentComments(
  graph: GraphClient,
  accessToken: string,
  posts: PostsList,
  max: number,
  commentsOf: (metered: GraphClient, postId: string) => Promise<PlatformComment[]>,
): Promise<RecentComments> {
  const { graph: metered, meter } = graph.metered();
  const listed = await metered.getAll(posts.path, accessToken, posts.query, max);
  const summaries = listed
    .map((p) => postSummaryOf(p, posts.textField, posts.timeField))
    .filter((p): p is PlatformPostSummary => p !== null);
  const comments: PlatformComment[] = [];
  for (const { id } of summaries) comments.push(...(await commentsOf(metered, id)));
  return {
    posts: summaries,
    comments: comments.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()),
    usagePercent: meter.highest,
  };
}

/** One post, read by id with `fields` (its text under `textField`, its time under `timeField`). */
export async function readPostSummary(
  graph: GraphClient,
  accessToken: string,
  postId: string,
  fields: string,
  textField: string,
  timeField?: string,
): Promise<PlatformPostSummary> {
  const post = await graph.get(`/${postId}`, accessToken, { fields });
  return requiredPostSummary(graph.platform, post, textField, timeField);
}

/**
 * Each comment's own time, read one by one (`GET /{comment-id}?fields=<timeField>`): the one
 * read Meta documents for a comment on every host. A comment the platform no longer has is left
 * out.
 */
export async function commentTimesByReading(
  graph: GraphClient,
  token: string,
  commentIds: readonly string[],
  timeField: 'timestamp' | 'created_time',
): Promise<Map<string, Date>> {
  const times = new Map<string, Date>();
  for (const id of new Set(commentIds)) {
    let body: Record<string, unknown>;
    try {
      body = await graph.get(`/${id}`, token, { fields: timeField });
    } catch (error) {
      if (isGone(error)) continue;
      throw error;
    }
    times.set(id, timeOf(graph, body, timeField));
  }
  return times;
}

/** The most ids Graph's multiple-id read takes ("max. 50 ids per request" since Graph v2.2). */
const IDS_PER_READ = 50;

/**
 * The ids of `asked` a refusal of a read says the platform does not have: code 803, "(#803) Some
 * of the aliases you requested do not exist: a,b", or code 100 subcode 33, "Object with ID 'a'
 * does not exist".
 */
function idsNamedMissing(error: unknown, asked: readonly string[]): Set<string> {
  if (!(error instanceof PlatformError)) return new Set();
  const message = error.detail.platformMessage ?? '';
  const named =
    error.detail.code === 803
      ? (/do not exist:\s*(.*)$/i.exec(message)?.[1] ?? '').split(',').map((id) => id.trim())
      : isGone(error)
        ? [/Object with ID '([^']*)'/.exec(message)?.[1] ?? '']
        : [];
  return new Set(asked.filter((id) => named.includes(id)));
}

/**
 * Hosts (by client) that refused the multiple-id read otherwise than for a gone id, and when:
 * Graph may have removed it (open question 65), and then each batch would cost a refused call
 * more than reading one by one. Such a host is read one by one for an hour before it is asked again.
 */
const refusedBatches = new WeakMap<GraphClient, number>();
const BATCH_REFUSAL_MEMORY_MS = 3_600_000;

/**
 * Each comment's own time, IDS_PER_READ at a time with Graph's multiple-id read (`GET
 * /?ids=a,b&fields=<timeField>`, one call answering an object keyed by id); a single comment
 * with `GET /{comment-id}`. A comment the platform no longer has is left out, as one by one.
 */
export async function commentTimesInBatches(
  graph: GraphClient,
  token: string,
  commentIds: readonly string[],
  timeField: 'timestamp' | 'created_time',
): Promise<Map<string, Date>> {
  const unique = [...new Set(commentIds)];
  const refusedAt = refusedBatches.get(graph);
  if (refusedAt !== undefined && Date.now() - refusedAt < BATCH_REFUSAL_MEMORY_MS) {
    return await commentTimesByReading(graph, token, unique, timeField);
  }
  const times = new Map<string, Date>();
  for (let i = 0; i < unique.length; i += IDS_PER_READ) {
    const { read, unread } = await readSeveral(graph, token, unique.slice(i, i + IDS_PER_READ), timeField);
    for (const [id, time] of read) times.set(id, time);
    for (const [id, time] of await commentTimesByReading(graph, token, unread, timeField)) times.set(id, time);
  }
  return times;
}

/**
 * The times of `ids` in one multiple-id read, and those left to read one by one (`unread`). Graph
 * refuses the whole read when one of its ids is gone, naming the ids: those are left out and the
 * rest read again (one left: read by its own id). A refusal that names none of them and is not
 * the token's, a permission's or a passing one (a host that does not take the multiple-id read)
 * leaves the batch to be read one by one.
 */
async function readSeveral(
  graph: GraphClient,
  token: string,
  ids: readonly string[],
  timeField: string,
): Promise<{ read: Map<string, Date>; unread: readonly string[] }> {
  let asked = ids;
  while (asked.length > 1) {
    let body: Record<string, unknown>;
    try {
      body = await graph.get('/', token, { ids: asked.join(','), fields: timeField });
    } catch (error) {
      const gone = idsNamedMissing(error, asked);
      if (gone.size > 0) {
        asked = asked.filter((id) => !gone.has(id));
        continue;
      }
      if (error instanceof PlatformError && (error.kind === 'invalid_request' || error.kind === 'unsupported')) {
        refusedBatches.set(graph, Date.now());
        return { read: new Map(), unread: asked };
      }
      throw error;
    }
    // An id the answer leaves out is one Graph does not give: left out too.
    const given = asked.filter((id) => body[id] !== undefined);
    return { read: new Map(given.map((id) => [id, timeOf(graph, record(body[id]), timeField)])), unread: [] };
  }
  return { read: new Map(), unread: asked };
}

function timeOf(graph: GraphClient, comment: Record<string, unknown>, timeField: string): Date {
  const time = graphDate(comment[timeField]);
  if (time === null)
    throw new PlatformError('transient', `${graph.platform} answered a comment without its time`, {
      platform: graph.platform,
    });
  return time;
}

/**
 * Deletes the account's own comment (a reply it made) with `DELETE /{comment-id}`: Graph answers
 * `{"success": true}`. A comment Graph no longer has (code 100, subcode 33) was deleted before.
 */
export async function deleteOwnComment(
  graph: GraphClient,
  platform: Platform,
  accessToken: string,
  commentId: string,
): Promise<void> {
  try {
    const body = await graph.call({
      method: 'DELETE',
      url: graph.url(`/${commentId}`),
      query: { access_token: accessToken },
    });
    requireSuccess(platform, body, `the deletion of ${commentId}`);
  } catch (error) {
    if (isGone(error)) return;
    throw error;
  }
}
