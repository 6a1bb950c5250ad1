/**
 * YouTube comments: the channel's uploads (`playlistItems.list` on its uploads playlist),
 * `commentThreads.list` of a video, `comments.list` (a comment's replies by `parentId`, or by
 * `id`), `comments.insert` (a reply, with `snippet.parentId`), `comments.setModerationStatus`
 * (`heldForReview`, `published`, `rejected`) and `comments.delete`, on www.googleapis.com.
 */
import type { FastifyInstance } from 'fastify';
import { requireScope } from '../caller.ts';
import { google, googleAnswer } from '../google/answers.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount, SandboxComment, SandboxPost } from '../schema.ts';
import { findAccount } from '../store/accounts.ts';
import { recordActivity, recordCommentDeletion, recordHiding } from '../store/activity.ts';
import { addComment, deleteComment, findComment, listComments, setCommentHidden } from '../store/comments.ts';
import { findPost, listPosts } from '../store/posts.ts';
import { call, SCOPE } from './access.ts';
import { chargedCaller, UNITS } from './units.ts';

/** "The maximum number of characters" of a comment's text (comments.insert: `commentTextTooLong`). */
const MAX_COMMENT = 10_000;
/**
 * The replies a thread carries: "a subset of the total number of replies", the rest read through
 * comments.list by parentId (CommentThreads resource). YouTube names no number; the sandbox
 * carries the oldest five.
 */
const CARRIED_REPLIES = 5;

function count(raw: string | undefined, fallback: number, min: number, max: number, name: string): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw google.badParameter(`Invalid value '${raw}' for ${name}. Values must be within the range: [${min}, ${max}]`);
  }
  return n;
}

function renderComment(channel: SandboxAccount, post: SandboxPost, c: SandboxComment, owner: boolean) {
  return {
    kind: 'youtube#comment',
    etag: `etag-${c.id}`,
    id: c.id,
    snippet: {
      channelId: channel.id,
      videoId: post.id,
      textDisplay: c.text,
      textOriginal: c.text,
      ...(c.parentId === null ? {} : { parentId: c.parentId }),
      authorDisplayName: c.authorUsername,
      authorChannelId: { value: c.authorId },
      canRate: true,
      viewerRating: 'none',
      likeCount: 0,
      // Only the channel's owner is told a comment's status, and only when it is not published.
      ...(owner && c.hidden ? { moderationStatus: 'heldForReview' } : {}),
      publishedAt: c.createdAt.toISOString(),
      updatedAt: c.createdAt.toISOString(),
    },
  };
}

/** A channel of another Google user: its threads are refused as YouTube refuses them. */
function refuseAnother(channel: SandboxAccount, userId: string): void {
  if (channel.parentId === userId) return;
  throw googleAnswer(
    403,
    'forbidden',
    'The comment thread could not be accessed because of insufficient permissions.',
    'youtube.commentThread',
  );
}

/** The video `id` of a channel the caller's grant reaches, else 404 / 403 as YouTube answers another's. */
async function ownVideo(
  store: Store,
  userId: string,
  id: string,
): Promise<{ post: SandboxPost; channel: SandboxAccount }> {
  const post = await findPost(store, id);
  const channel = post === undefined ? undefined : await findAccount(store, post.accountId);
  if (post === undefined || channel?.platform !== 'youtube') {
    throw googleAnswer(
      404,
      'videoNotFound',
      'The video identified by the videoId parameter could not be found.',
      'youtube.commentThread',
    );
  }
  refuseAnother(channel, userId);
  return { post, channel };
}

/** Every video of a channel the caller's grant reaches (allThreadsRelatedToChannelId), else 403 / 404 as for a video. */
async function channelVideos(
  store: Store,
  userId: string,
  channelId: string,
): Promise<{ post: SandboxPost; channel: SandboxAccount }[]> {
  const channel = await findAccount(store, channelId);
  if (channel?.platform !== 'youtube') {
    throw googleAnswer(
      404,
      'channelNotFound',
      'The channel identified by the allThreadsRelatedToChannelId parameter could not be found.',
      'youtube.commentThread',
    );
  }
  refuseAnother(channel, userId);
  const { posts } = await listPosts(store, channel.id, { limit: 1_000 });
  return posts.map((post) => ({ post, channel }));
}

export function commentRoutes(app: FastifyInstance, store: Store): void {
  app.get('/youtube/v3/playlistItems', async (request) => {
    const who = await chargedCaller(store, request, UNITS.list);
    requireScope(who, call, SCOPE.forceSsl, SCOPE.readonly, SCOPE.manage);
    const playlistId = param(request, 'playlistId') ?? '';
    const channel = /^UU/.test(playlistId) ? await findAccount(store, `UC${playlistId.slice(2)}`) : undefined;
    if (channel?.platform !== 'youtube' || channel.parentId !== who.account.id) {
      throw googleAnswer(
        404,
        'playlistNotFound',
        "The playlist identified with the request's playlistId parameter cannot be found.",
        'youtube.playlistItem',
      );
    }
    const max = count(param(request, 'maxResults'), 5, 0, 50, 'maxResults');
    const after = param(request, 'pageToken');
    const { posts, more } = await listPosts(store, channel.id, { limit: max, ...(after ? { after } : {}) });
    const last = posts.at(-1);
    return {
      kind: 'youtube#playlistItemListResponse',
      etag: `etag-${playlistId}`,
      ...(more && last ? { nextPageToken: last.id } : {}),
      pageInfo: { totalResults: posts.length, resultsPerPage: max },
      items: posts.map((post, position) => ({
        kind: 'youtube#playlistItem',
        etag: `etag-${post.id}`,
        id: `PLI${post.id}`,
        snippet: {
          publishedAt: post.createdAt.toISOString(),
          channelId: channel.id,
          title: post.caption.split('\n')[0]?.slice(0, 100) || `Video ${post.id}`,
          description: post.caption,
          playlistId,
          position,
          resourceId: { kind: 'youtube#video', videoId: post.id },
        },
        contentDetails: { videoId: post.id, videoPublishedAt: post.createdAt.toISOString() },
      })),
    };
  });

  app.get('/youtube/v3/commentThreads', async (request) => {
    const who = await chargedCaller(store, request, UNITS.list);
    requireScope(who, call, SCOPE.forceSsl, SCOPE.readonly, SCOPE.manage);
    const videoId = param(request, 'videoId');
    const channelId = param(request, 'allThreadsRelatedToChannelId');
    if ((videoId === undefined) === (channelId === undefined))
      throw google.badParameter(
        'Exactly one of allThreadsRelatedToChannelId, id, videoId is expected (the sandbox takes videoId and allThreadsRelatedToChannelId).',
      );
    const status = param(request, 'moderationStatus') ?? 'published';
    if (!['published', 'heldForReview', 'likelySpam'].includes(status)) {
      throw google.badParameter(`Invalid value '${status}' for moderationStatus.`);
    }
    // The sandbox lists only the threads of the caller's own channels (a video of another's is
    // refused, as moderationStatus is for the owner: "a properly authorized request").
    const videos =
      videoId !== undefined
        ? [await ownVideo(store, who.account.id, videoId)]
        : await channelVideos(store, who.account.id, channelId ?? '');
    const max = count(param(request, 'maxResults'), 20, 1, 100, 'maxResults');
    const offset = Number(param(request, 'pageToken') ?? 0) || 0;
    const threads: { top: SandboxComment; replies: SandboxComment[]; post: SandboxPost; channel: SandboxAccount }[] =
      [];
    for (const { post, channel } of videos) {
      for (const top of (await listComments(store, post.id, { parentId: null, limit: 10_000 })).comments) {
        const replies = (await listComments(store, post.id, { parentId: top.id, limit: 10_000 })).comments;
        // published: "if its top-level comment has been published"; heldForReview: "if the
        // top-level comment or at least one of the replies to that comment are awaiting review".
        const listed =
          status === 'published'
            ? !top.hidden
            : status === 'heldForReview' && (top.hidden || replies.some((r) => r.hidden));
        if (listed) {
          threads.push({
            top,
            replies: replies.filter((r) => r.hidden === (status === 'heldForReview')),
            post,
            channel,
          });
        }
      }
    }
    threads.sort((a, b) => b.top.createdAt.getTime() - a.top.createdAt.getTime());
    const page = threads.slice(offset, offset + max);
    return {
      kind: 'youtube#commentThreadListResponse',
      etag: `etag-threads-${videoId ?? channelId}`,
      ...(offset + max < threads.length ? { nextPageToken: String(offset + max) } : {}),
      pageInfo: { totalResults: page.length, resultsPerPage: max },
      items: page.map(({ top, replies, post, channel }) => ({
        kind: 'youtube#commentThread',
        etag: `etag-thread-${top.id}`,
        id: top.id,
        snippet: {
          channelId: channel.id,
          videoId: post.id,
          topLevelComment: renderComment(channel, post, top, true),
          canReply: true,
          totalReplyCount: replies.length,
          isPublic: true,
        },
        // The thread's oldest replies (of the status asked), oldest first: a subset where there are more.
        ...(replies.length === 0
          ? {}
          : {
              replies: {
                comments: [...replies]
                  .reverse()
                  .slice(0, CARRIED_REPLIES)
                  .map((r) => renderComment(channel, post, r, true)),
              },
            }),
      })),
    };
  });

  // comments.list: a comment's replies by `parentId` (paged), or comments by `id`.
  app.get('/youtube/v3/comments', async (request) => {
    const who = await chargedCaller(store, request, UNITS.list);
    requireScope(who, call, SCOPE.forceSsl, SCOPE.readonly, SCOPE.manage);
    const part = param(request, 'part') ?? '';
    if (part === '' || part.split(',').some((p) => !['id', 'snippet'].includes(p))) {
      throw google.badParameter(`Invalid value '${part}' for part: the comment resource's parts are id and snippet.`);
    }
    const parentId = param(request, 'parentId');
    const ids = param(request, 'id');
    if ((parentId === undefined) === (ids === undefined)) {
      throw google.badParameter('Exactly one of id, parentId is expected.');
    }
    if (ids !== undefined) {
      const found = [];
      for (const id of ids.split(',')) {
        const comment = await findComment(store, id);
        const post = comment === undefined ? undefined : await findPost(store, comment.postId);
        const channel = post === undefined ? undefined : await findAccount(store, post.accountId);
        if (comment && post && channel?.platform === 'youtube' && !comment.hidden) {
          found.push(renderComment(channel, post, comment, channel.parentId === who.account.id));
        }
      }
      return {
        kind: 'youtube#commentListResponse',
        etag: 'etag-comments',
        pageInfo: { totalResults: found.length, resultsPerPage: found.length },
        items: found,
      };
    }
    const max = count(param(request, 'maxResults'), 20, 1, 100, 'maxResults');
    const offset = Number(param(request, 'pageToken') ?? 0) || 0;
    const parent = await findComment(store, parentId ?? '');
    const post = parent === undefined ? undefined : await findPost(store, parent.postId);
    const channel = post === undefined ? undefined : await findAccount(store, post.accountId);
    // An unknown comment has no replies to list.
    const replies =
      parent === undefined || post === undefined || channel?.platform !== 'youtube'
        ? []
        : (await listComments(store, post.id, { parentId: parent.id, limit: 10_000 })).comments
            .filter((c) => !c.hidden)
            .reverse();
    const page = replies.slice(offset, offset + max);
    return {
      kind: 'youtube#commentListResponse',
      etag: `etag-replies-${parentId}`,
      ...(offset + max < replies.length ? { nextPageToken: String(offset + max) } : {}),
      pageInfo: { totalResults: replies.length, resultsPerPage: max },
      items:
        post === undefined || channel === undefined
          ? []
          : page.map((r) => renderComment(channel, post, r, channel.parentId === who.account.id)),
    };
  });

  app.post('/youtube/v3/comments', async (request) => {
    const who = await chargedCaller(store, request, UNITS.write);
    requireScope(who, call, SCOPE.forceSsl, SCOPE.manage);
    const body = (request.body ?? {}) as { snippet?: { parentId?: unknown; textOriginal?: unknown } };
    const parentId = typeof body.snippet?.parentId === 'string' ? body.snippet.parentId : '';
    const text = typeof body.snippet?.textOriginal === 'string' ? body.snippet.textOriginal : '';
    const parent = parentId === '' ? undefined : await findComment(store, parentId);
    if (parent === undefined) {
      throw googleAnswer(404, 'parentCommentNotFound', 'The parent comment could not be found.', 'youtube.comment');
    }
    // A reply answers a top-level comment: YouTube threads have one level.
    if (parent.parentId !== null) {
      throw googleAnswer(
        400,
        'operationNotSupported',
        'A reply can only answer a top-level comment.',
        'youtube.comment',
      );
    }
    if (text.trim() === '')
      throw googleAnswer(400, 'commentTextRequired', 'The comment text is required.', 'youtube.comment');
    if ([...text].length > MAX_COMMENT) {
      throw googleAnswer(400, 'commentTextTooLong', 'The comment text is too long.', 'youtube.comment');
    }
    const post = await findPost(store, parent.postId);
    const channel = post === undefined ? undefined : await findAccount(store, post.accountId);
    if (post === undefined || channel === undefined || channel.parentId !== who.account.id) {
      throw googleAnswer(
        403,
        'forbidden',
        'The comment could not be created due to insufficient permissions.',
        'youtube.comment',
      );
    }
    const reply = await addComment(store, {
      postId: post.id,
      parentId: parent.id,
      authorId: channel.id,
      authorUsername: `@${channel.username}`,
      text,
    });
    await recordActivity(store, {
      accountId: channel.id,
      action: 'reply',
      targetId: parent.id,
      detail: { reply_id: reply.id, message: text },
    });
    return renderComment(channel, post, reply, true);
  });

  app.post('/youtube/v3/comments/setModerationStatus', async (request, reply) => {
    const who = await chargedCaller(store, request, UNITS.write);
    requireScope(who, call, SCOPE.forceSsl, SCOPE.manage);
    const status = param(request, 'moderationStatus') ?? '';
    if (!['heldForReview', 'published', 'rejected'].includes(status)) {
      throw google.badParameter(`Invalid value '${status}' for moderationStatus.`);
    }
    const ids = (param(request, 'id') ?? '').split(',').filter((id) => id !== '');
    if (ids.length === 0) throw google.badParameter('The id parameter is required.');
    for (const id of ids) {
      const comment = await findComment(store, id);
      const post = comment === undefined ? undefined : await findPost(store, comment.postId);
      const channel = post === undefined ? undefined : await findAccount(store, post.accountId);
      if (comment === undefined || channel?.platform !== 'youtube') {
        throw googleAnswer(404, 'commentNotFound', 'One or more comments could not be found.', 'youtube.comment');
      }
      // Only the channel's owner moderates the comments on its videos.
      if (channel.parentId !== who.account.id) {
        throw googleAnswer(
          403,
          'forbidden',
          'The comment could not be moderated due to insufficient permissions.',
          'youtube.comment',
        );
      }
      const hidden = status !== 'published';
      await setCommentHidden(store, comment.id, hidden);
      await recordHiding(store, channel.id, comment.id, hidden);
    }
    return reply.code(204).send();
  });

  // Comments: delete (204). Its page does not say whose comments a channel may delete; the sandbox
  // takes the cautious side: the channel's own comments only, others 403 forbidden.
  app.delete('/youtube/v3/comments', async (request, reply) => {
    const who = await chargedCaller(store, request, UNITS.write);
    requireScope(who, call, SCOPE.forceSsl);
    const id = param(request, 'id') ?? '';
    if (id === '') throw google.badParameter('The id parameter is required.');
    const comment = await findComment(store, id);
    const post = comment === undefined ? undefined : await findPost(store, comment.postId);
    const channel = post === undefined ? undefined : await findAccount(store, post.accountId);
    if (comment === undefined || channel?.platform !== 'youtube') {
      throw googleAnswer(404, 'commentNotFound', 'The specified comment could not be found.', 'youtube.comment');
    }
    if (channel.parentId !== who.account.id || comment.authorId !== channel.id) {
      throw googleAnswer(
        403,
        'forbidden',
        'The comment could not be deleted because of insufficient permissions.',
        'youtube.comment',
      );
    }
    await deleteComment(store, comment);
    await recordCommentDeletion(store, channel.id, comment.id);
    return reply.code(204).send();
  });
}
