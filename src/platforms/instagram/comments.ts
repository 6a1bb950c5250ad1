/** Instagram comments: reading them (with replies), their notices, replying and hiding. */
import { list, record, str } from '../http.ts';
import { commentTimesInBatches, deleteOwnComment, readPostSummary, readRecentComments } from '../meta/comments.ts';
import { idOf, requireSuccess } from '../meta/graph-answers.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { noticeSecretsOf } from '../meta/settings.ts';
import type { CommentsCapability, PlatformComment } from '../types.ts';
import { instagramCommentNotices } from './notices.ts';

const platform = 'instagram';

/**
 * `user` comes only on a comment the account wrote ("Only returned if the app user created the
 * IG Comment", IG Comment reference): `from.id` is an Instagram-scoped id, which for the
 * account's own comments is not the professional account id the service keeps.
 */
const COMMENT_FIELDS = 'id,text,timestamp,username,from,user,hidden,like_count,parent_id';

function toComment(raw: unknown, postId: string, accountId: string): PlatformComment | null {
  const c = record(raw);
  const id = str(c.id);
  const created = Date.parse(str(c.timestamp) ?? '');
  if (id === null || Number.isNaN(created)) return null;
  const from = record(c.from);
  // `user` is the IG User node ({id}) or, as some answers have it, its id alone.
  const user = str(record(c.user).id) ?? str(c.user);
  const byAccount = user !== null || str(from.id) === accountId;
  return {
    id,
    postId,
    parentId: str(c.parent_id),
    authorId: byAccount ? accountId : str(from.id),
    authorUsername: str(from.username) ?? str(c.username),
    text: str(c.text) ?? '',
    createdAt: new Date(created),
    hidden: c.hidden === true,
    byAccount,
  };
}

export function instagramComments({ graph, options, now }: GraphContext): CommentsCapability {
  return {
    recentComments({ platformUserId, accessToken }, { posts = 10 } = {}) {
      const media = {
        path: `/${platformUserId}/media`,
        query: { fields: 'id,caption,media_type,permalink,timestamp,comments_count', limit: Math.min(posts, 50) },
        textField: 'caption',
      };
      return readRecentComments(graph, accessToken, media, posts, async (metered, postId) => {
        const top = await metered.getAll(
          `/${postId}/comments`,
          accessToken,
          { fields: `${COMMENT_FIELDS},replies{${COMMENT_FIELDS}}`, limit: 50 },
          500,
        );
        const comments: PlatformComment[] = [];
        for (const raw of top) {
          const comment = toComment(raw, postId, platformUserId);
          if (comment) comments.push(comment);
          for (const reply of list(record(record(raw).replies).data)) {
            const parsed = toComment(reply, postId, platformUserId);
            if (parsed) comments.push({ ...parsed, parentId: parsed.parentId ?? comment?.id ?? null });
          }
        }
        return comments;
      });
    },

    parseCommentNotices(notice) {
      return instagramCommentNotices(notice, noticeSecretsOf(options), now());
    },

    async subscribeNotices({ accessToken }) {
      // "Enable Subscriptions": POST /me/subscribed_apps with subscribed_fields, the user's token;
      // `comments` needs instagram_business_basic and instagram_business_manage_comments
      // (https://developers.facebook.com/docs/instagram-platform/webhooks; docs/platforms.md, "Comment notices").
      const body = await graph.post('/me/subscribed_apps', accessToken, { subscribed_fields: 'comments' });
      requireSuccess(platform, body, 'the subscription to comment notices');
    },

    async commentTimes({ accessToken }, commentIds) {
      // "timestamp: ISO 8601 formatted timestamp indicating when IG Comment was created" (IG Comment reference).
      return commentTimesInBatches(graph, accessToken, commentIds, 'timestamp');
    },

    postSummary({ accessToken }, postId) {
      return readPostSummary(graph, accessToken, postId, 'id,caption,permalink,timestamp', 'caption');
    },

    async reply({ accessToken }, commentId, text) {
      const id = idOf(platform, await graph.post(`/${commentId}/replies`, accessToken, { message: text }));
      return { state: 'sent', id };
    },

    async deleteReply({ accessToken }, replyId) {
      await deleteOwnComment(graph, platform, accessToken, replyId);
    },

    async setHidden({ accessToken }, commentId, hidden) {
      await graph.call({
        method: 'POST',
        url: graph.url(`/${commentId}`),
        query: { hide: hidden },
        form: { access_token: accessToken },
      });
    },
  };
}
