/**
 * Comments on a channel's videos, read by polling (YouTube pushes no comment notices): the
 * channel's uploads playlist (`channels.list` contentDetails, then `playlistItems.list`, 1 unit a
 * page, rather than `search.list`'s 100), each video's `commentThreads.list`, and the channel's
 * threads held for review in one more list; a reply is
 * `comments.insert` under the thread's top-level comment; hiding is
 * `comments.setModerationStatus` (`heldForReview`, and `published` to show it again), which the
 * channel's owner may do. Facts: docs/platforms.md, "YouTube comments".
 */
import { invalidRequest } from '../errors.ts';
import { list, num, record, str } from '../http.ts';
import { pollingOnlyNotices } from '../polling-only.ts';
import {
  type AccountCredentials,
  type CommentsCapability,
  type PlatformComment,
  PlatformError,
  type PlatformPostSummary,
} from '../types.ts';
import type { YouTubeContext } from './channels.ts';

const platform = 'youtube';
/** commentThreads.list's largest page ("Acceptable values are 1 to 100"). */
const THREAD_PAGE = 100;
/** Threads read per video: enough for any recent video, bounded against a viral one. */
const MAX_THREADS_PER_VIDEO = 500;
/** Held threads read a poll, across the channel's videos. */
const MAX_HELD_THREADS = 500;
/** comments.list's largest page ("Acceptable values are 1 to 100"). */
const REPLY_PAGE = 100;
/** Replies read per thread beyond those it carries, bounded as the threads are. */
const MAX_REPLIES_PER_THREAD = 500;
const watchUrl = (id: string) => `https://www.youtube.com/watch?v=${encodeURIComponent(id)}`;

function toComment(raw: unknown, videoId: string, channelId: string, parentId: string | null): PlatformComment | null {
  const c = record(raw);
  const id = str(c.id);
  const snippet = record(c.snippet);
  const at = Date.parse(str(snippet.publishedAt) ?? '');
  if (id === null || Number.isNaN(at)) return null;
  const author = str(record(snippet.authorChannelId).value);
  return {
    id,
    postId: videoId,
    parentId,
    authorId: author,
    authorUsername: str(snippet.authorDisplayName),
    text: str(snippet.textOriginal) ?? str(snippet.textDisplay) ?? '',
    createdAt: new Date(at),
    // A held comment is read from the held threads, its moderationStatus given to the channel's owner.
    hidden: str(snippet.moderationStatus) === 'heldForReview' || str(snippet.moderationStatus) === 'rejected',
    byAccount: author === channelId,
  };
}

export function youtubeComments(context: YouTubeContext): CommentsCapability {
  const { google, reads } = context;
  const api = (path: string) => google.url('www.googleapis.com', `/youtube/v3${path}`);

  async function videoSummaries(token: string, channelId: string, count: number): Promise<PlatformPostSummary[]> {
    const channels = await reads.api('GET', api('/channels'), token, {
      query: { part: 'contentDetails', id: channelId },
    });
    const uploads = str(record(record(record(list(channels.items)[0]).contentDetails).relatedPlaylists).uploads);
    if (uploads === null) return [];
    const items = await reads.api('GET', api('/playlistItems'), token, {
      query: { part: 'snippet,contentDetails', playlistId: uploads, maxResults: Math.min(count, 50) },
    });
    const videos: PlatformPostSummary[] = [];
    for (const raw of list(items.items)) {
      const item = record(raw);
      const details = record(item.contentDetails);
      const snippet = record(item.snippet);
      const id = str(details.videoId) ?? str(record(snippet.resourceId).videoId);
      if (id === null) continue;
      const at = Date.parse(str(details.videoPublishedAt) ?? str(snippet.publishedAt) ?? '');
      videos.push({
        id,
        // The title names a video better than its description.
        text: str(snippet.title),
        permalink: watchUrl(id),
        publishedAt: Number.isNaN(at) ? null : new Date(at),
      });
    }
    return videos;
  }

  /**
   * The items of a list YouTube pages by `pageToken` (`nextPageToken`), `pageSize` a page in
   * plain text, up to `max`: a unit a page.
   */
  async function allItems(
    token: string,
    path: string,
    query: Record<string, string>,
    pageSize: number,
    max: number,
  ): Promise<unknown[]> {
    const items: unknown[] = [];
    let pageToken: string | null = null;
    for (let read = 0; read < max; read += pageSize) {
      const page = await reads.api('GET', api(path), token, {
        query: {
          ...query,
          maxResults: pageSize,
          textFormat: 'plainText',
          ...(pageToken === null ? {} : { pageToken }),
        },
      });
      items.push(...list(page.items));
      pageToken = str(page.nextPageToken);
      if (pageToken === null || pageToken === '') break;
    }
    return items;
  }

  /**
   * A thread's replies: those it carries, or, where it carries fewer than its
   * `totalReplyCount` ("a subset", CommentThreads), all of them through `comments.list` by
   * `parentId`.
   */
  async function threadReplies(token: string, thread: Record<string, unknown>, topId: string): Promise<unknown[]> {
    const carried = list(record(thread.replies).comments);
    const total = num(record(thread.snippet).totalReplyCount) ?? 0;
    if (total <= carried.length) return carried;
    return await allItems(token, '/comments', { part: 'snippet', parentId: topId }, REPLY_PAGE, MAX_REPLIES_PER_THREAD);
  }

  /**
   * The comments held for review on the recent videos (by YouTube itself, or by the channel's
   * owner on YouTube or through the inbox), hidden: one list for the whole channel
   * (`allThreadsRelatedToChannelId`, `moderationStatus=heldForReview`) rather than one a video.
   * A held thread is one whose top-level comment or a reply awaits review; only the comments
   * whose own `moderationStatus` says so are taken.
   */
  async function heldComments(
    token: string,
    channelId: string,
    videos: readonly PlatformPostSummary[],
    published: readonly PlatformComment[],
  ): Promise<PlatformComment[]> {
    const recent = new Set(videos.map((v) => v.id));
    const seen = new Set(published.map((c) => c.id));
    const threads = await allItems(
      token,
      '/commentThreads',
      { part: 'snippet,replies', allThreadsRelatedToChannelId: channelId, moderationStatus: 'heldForReview' },
      THREAD_PAGE,
      MAX_HELD_THREADS,
    );
    const held: PlatformComment[] = [];
    for (const raw of threads) {
      const thread = record(raw);
      const snippet = record(thread.snippet);
      const videoId = str(snippet.videoId);
      if (videoId === null || !recent.has(videoId)) continue;
      const top = toComment(snippet.topLevelComment, videoId, channelId, null);
      if (top === null) continue;
      const replies = list(record(thread.replies).comments).map((r) => toComment(r, videoId, channelId, top.id));
      for (const comment of [top, ...replies]) {
        if (comment === null || !comment.hidden || seen.has(comment.id)) continue;
        seen.add(comment.id);
        held.push(comment);
      }
    }
    return held;
  }

  return {
    async recentComments({ platformUserId, accessToken }, { posts = 10 } = {}) {
      const videos = await videoSummaries(accessToken, platformUserId, posts);
      const comments: PlatformComment[] = [];
      for (const { id } of videos) {
        const threads = await allItems(
          accessToken,
          '/commentThreads',
          { part: 'snippet,replies', videoId: id },
          THREAD_PAGE,
          MAX_THREADS_PER_VIDEO,
        );
        for (const raw of threads) {
          const thread = record(raw);
          const top = toComment(record(thread.snippet).topLevelComment, id, platformUserId, null);
          if (top === null) continue;
          comments.push(top);
          for (const reply of await threadReplies(accessToken, thread, top.id)) {
            const c = toComment(reply, id, platformUserId, top.id);
            if (c !== null) comments.push(c);
          }
        }
      }
      comments.push(...(await heldComments(accessToken, platformUserId, videos, comments)));
      comments.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      return { posts: videos, comments, usagePercent: null };
    },

    ...pollingOnlyNotices(platform, 'YouTube sends none'),

    async postSummary({ accessToken }, postId) {
      const answer = await reads.api('GET', api('/videos'), accessToken, { query: { part: 'snippet', id: postId } });
      const video = record(list(answer.items)[0]);
      const id = str(video.id);
      if (id === null) throw new PlatformError('invalid_request', `youtube: no video ${postId}`, { platform });
      const snippet = record(video.snippet);
      const at = Date.parse(str(snippet.publishedAt) ?? '');
      return {
        id,
        text: str(snippet.title),
        permalink: watchUrl(id),
        publishedAt: Number.isNaN(at) ? null : new Date(at),
      };
    },

    async reply({ accessToken }: AccountCredentials, commentId, text) {
      if (text.trim() === '') throw invalidRequest(platform, 'a reply needs text');
      // A reply's id is its top-level comment's and its own, joined by a dot: YouTube threads have one level.
      const parentId = commentId.split('.')[0] ?? commentId;
      const created = await google.api('POST', api('/comments'), accessToken, {
        query: { part: 'snippet' },
        json: { snippet: { parentId, textOriginal: text } },
      });
      const id = str(created.id);
      if (id === null) throw new PlatformError('transient', 'youtube created the reply without an id', { platform });
      return { state: 'sent', id };
    },

    async deleteReply({ accessToken }, replyId) {
      // Comments: delete answers 204; a comment YouTube no longer has (404 commentNotFound) was deleted before.
      try {
        await google.apiEmpty('DELETE', api('/comments'), accessToken, { query: { id: replyId } });
      } catch (error) {
        if (error instanceof PlatformError && error.detail.status === 404) return;
        throw error;
      }
    },

    async setHidden({ accessToken }, commentId, hidden) {
      await google.apiEmpty('POST', api('/comments/setModerationStatus'), accessToken, {
        query: { id: commentId, moderationStatus: hidden ? 'heldForReview' : 'published' },
      });
    },
  };
}
