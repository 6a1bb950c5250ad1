/** What reading comments shares on Meta's platforms: recent posts with their comments, one post, each comment's time. */
import type { PlatformRequest } from '../http.ts';
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
 * read Meta documents for a comment on every host (Graph's `?ids=` batch read is documented
 * for graph.facebook.com only). A comment the platform no longer has is left out.
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
    const time = graphDate(body[timeField]);
    if (time === null)
      throw new PlatformError('transient', `${graph.platform} answered a comment without its time`, {
        platform: graph.platform,
      });
    times.set(id, time);
  }
  return times;
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
