/** A page's comments: reading them (every depth), their notices, replying as the page and hiding. */
import { record, str } from '../http.ts';
import { commentTimesInBatches, deleteOwnComment, readPostSummary, readRecentComments } from '../meta/comments.ts';
import { idOf, requireSuccess } from '../meta/graph-answers.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { noticeSecretsOf } from '../meta/settings.ts';
import { type CommentsCapability, type PlatformComment, PlatformError } from '../types.ts';
import { facebookCommentNotices } from './notices.ts';
import { POST_FIELDS } from './post-containers.ts';

const platform = 'facebook';

const COMMENT_FIELDS = 'id,message,created_time,from{id,name},is_hidden,parent{id}';
const COMMENTS_PER_POST = 500;

function toComment(raw: unknown, postId: string, pageId: string): PlatformComment | null {
  const c = record(raw);
  const id = str(c.id);
  const created = Date.parse(str(c.created_time) ?? '');
  if (id === null || Number.isNaN(created)) return null;
  // `from` is left out for people who have not allowed apps to see them.
  const from = record(c.from);
  const authorId = str(from.id);
  return {
    id,
    postId,
    parentId: str(record(c.parent).id),
    authorId,
    authorUsername: str(from.name),
    text: str(c.message) ?? '',
    createdAt: new Date(created),
    hidden: c.is_hidden === true,
    byAccount: authorId !== null && authorId === pageId,
  };
}

export function facebookComments({ graph, options, now }: GraphContext): CommentsCapability {
  return {
    recentComments({ platformUserId, accessToken }, { posts = 10 } = {}) {
      const feed = {
        path: `/${platformUserId}/posts`,
        query: { fields: POST_FIELDS, limit: Math.min(Math.max(posts, 1), 100) },
        textField: 'message',
        timeField: 'created_time',
      };
      return readRecentComments(graph, accessToken, feed, posts, async (metered, postId) => {
        // `filter=stream` answers replies at every depth in one flat list, each naming its parent.
        const raw = await metered.getAll(
          `/${postId}/comments`,
          accessToken,
          { fields: COMMENT_FIELDS, filter: 'stream', order: 'reverse_chronological', limit: 100 },
          COMMENTS_PER_POST,
        );
        return raw
          .map((entry) => toComment(entry, postId, platformUserId))
          .filter((c): c is PlatformComment => c !== null);
      });
    },

    parseCommentNotices(notice) {
      // A notice comes as the comment is made: without a time of its own, it is now.
      return facebookCommentNotices(notice, noticeSecretsOf(options), now());
    },

    async subscribeNotices({ platformUserId, accessToken }) {
      // "To get your Page to install the app, have your app send a POST request to the Page's
      // subscribed_apps edge using the Page's access token"; `feed` needs pages_manage_metadata
      // and pages_show_list (Webhooks for Pages, https://developers.facebook.com/docs/pages-api/webhooks-for-pages).
      const body = await graph.post(`/${platformUserId}/subscribed_apps`, accessToken, { subscribed_fields: 'feed' });
      requireSuccess(platform, body, 'the subscription to the page feed');
    },

    async commentTimes({ accessToken }, commentIds) {
      return commentTimesInBatches(graph, accessToken, commentIds, 'created_time');
    },

    postSummary({ accessToken }, postId) {
      return readPostSummary(graph, accessToken, postId, POST_FIELDS, 'message', 'created_time');
    },

    async reply({ accessToken }, commentId, text) {
      const id = idOf(platform, await graph.post(`/${commentId}/comments`, accessToken, { message: text }));
      return { state: 'sent', id };
    },

    async deleteReply({ accessToken }, replyId) {
      await deleteOwnComment(graph, platform, accessToken, replyId);
    },

    async setHidden({ accessToken }, commentId, hidden) {
      const body = await graph.post(`/${commentId}`, accessToken, { is_hidden: String(hidden) });
      if (body.success === false) {
        throw new PlatformError('transient', `facebook did not ${hidden ? 'hide' : 'unhide'} ${commentId}`, {
          platform,
        });
      }
    },
  };
}
