/** Threads replies, the service's comments there: reading them, their notices, replying and hiding. */
import { invalidRequest } from '../errors.ts';
import { record, str } from '../http.ts';
import { commentTimesByReading, readPostSummary, readRecentComments } from '../meta/comments.ts';
import { createContainer, publishContainer, readContainerStatus } from '../meta/containers.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { noticeSecretsOf } from '../meta/settings.ts';
import { tooLong } from '../publish-checks.ts';
import {
  type AccountCredentials,
  type CommentsCapability,
  type PlatformComment,
  PlatformError,
  type ReplyOutcome,
} from '../types.ts';
import { THREADS_CONTAINERS } from './containers.ts';
import { threadsDefinition } from './definition.ts';
import { threadsCommentNotices } from './notices.ts';
import { TEXT_TOO_LONG } from './publish-rules.ts';

const platform = 'threads';

/** Replies read per post: enough for any recent post, bounded against a viral one. */
const MAX_REPLIES_PER_POST = 500;

const REPLY_FIELDS = 'id,text,username,permalink,timestamp,is_reply_owned_by_me,hide_status,replied_to,root_post';

/** A reply in a conversation; `parentId` is null for a reply to the post itself. */
function toComment(raw: unknown, postId: string, accountId: string): PlatformComment | null {
  const r = record(raw);
  const id = str(r.id);
  const created = Date.parse(str(r.timestamp) ?? '');
  if (id === null || Number.isNaN(created)) return null;
  const repliedTo = str(record(r.replied_to).id);
  const root = str(record(r.root_post).id) ?? postId;
  const byAccount = r.is_reply_owned_by_me === true;
  return {
    id,
    postId,
    parentId: repliedTo === null || repliedTo === root || repliedTo === postId ? null : repliedTo,
    // Threads names the author of a reply, not its id: only the account's own are known.
    authorId: byAccount ? accountId : null,
    authorUsername: str(r.username),
    text: str(r.text) ?? '',
    createdAt: new Date(created),
    // Only HIDDEN is what manage_reply sets (and can undo); NOT_HUSHED and the rest are visible or not ours.
    hidden: r.hide_status === 'HIDDEN',
    byAccount,
  };
}

export function threadsComments({ graph, options, now }: GraphContext): CommentsCapability {
  /**
   * Publishes a reply container if Threads finished processing it, after reading its status
   * once: Threads recommends waiting before publishing a container
   * (https://developers.facebook.com/docs/threads/posts, "wait on average 30 seconds"), and a
   * worker slot must not be held for it, so a container still IN_PROGRESS is handed back as
   * pending for a job due later.
   */
  async function publishReplyIfReady(credentials: AccountCredentials, containerId: string): Promise<ReplyOutcome> {
    const status = await readContainerStatus(graph, credentials.accessToken, containerId, THREADS_CONTAINERS.status);
    if (status.state === 'in_progress') return { state: 'pending', containerId };
    if (status.state !== 'finished') {
      // A published one cannot say which reply it became; failed and expired ones never will be.
      throw invalidRequest(platform, `the reply could not be published: ${status.message ?? status.state}`);
    }
    return {
      state: 'sent',
      id: await publishContainer(graph, credentials, THREADS_CONTAINERS.publishEdge, containerId),
    };
  }

  return {
    recentComments({ platformUserId, accessToken }, { posts = 10 } = {}) {
      const threads = {
        path: `/${platformUserId}/threads`,
        query: { fields: 'id,text,media_type,permalink,timestamp', limit: Math.min(posts, 100) },
        textField: 'text',
      };
      return readRecentComments(graph, accessToken, threads, posts, async (metered, postId) => {
        const replies = await metered.getAll(
          `/${postId}/conversation`,
          accessToken,
          { fields: REPLY_FIELDS, limit: 100 },
          MAX_REPLIES_PER_POST,
        );
        return replies
          .map((raw) => toComment(raw, postId, platformUserId))
          .filter((c): c is PlatformComment => c !== null);
      });
    },

    parseCommentNotices(notice) {
      // A notice comes as the comment is made: without a time of its own, it is now.
      return threadsCommentNotices(notice, noticeSecretsOf(options), now());
    },

    async subscribeNotices() {
      // Threads documents no subscription per user: the app subscribes to the `replies` field in
      // its dashboard, and a user's replies are notified once the user granted threads_basic and
      // threads_read_replies (https://developers.facebook.com/docs/threads/webhooks).
    },

    async commentTimes({ accessToken }, commentIds) {
      // A reply is a Threads media object: its `timestamp` is when it was published.
      return commentTimesByReading(graph, accessToken, commentIds, 'timestamp');
    },

    postSummary({ accessToken }, postId) {
      return readPostSummary(graph, accessToken, postId, 'id,text,permalink,timestamp', 'text');
    },

    async reply(credentials, commentId, text) {
      if (tooLong(threadsDefinition.publishing.text, text)) {
        throw invalidRequest(platform, `a Threads post or reply has ${TEXT_TOO_LONG}`);
      }
      if (text.trim() === '') throw invalidRequest(platform, 'a reply needs text');
      const fields = { media_type: 'TEXT', text, reply_to_id: commentId };
      return publishReplyIfReady(credentials, await createContainer(graph, credentials, 'threads', fields));
    },

    async finishReply(credentials, containerId) {
      return publishReplyIfReady(credentials, containerId);
    },

    async setHidden({ accessToken }, commentId, hidden) {
      // Threads hides top-level replies only, each with the replies nested under it
      // (https://developers.facebook.com/docs/threads/reply-management, "Hide Replies").
      const reply = await graph.get(`/${commentId}`, accessToken, { fields: 'replied_to,root_post' });
      const repliedTo = str(record(reply.replied_to).id);
      const root = str(record(reply.root_post).id);
      if (repliedTo !== null && root !== null && repliedTo !== root) {
        throw invalidRequest(
          platform,
          'only a top-level reply can be hidden or unhidden on Threads, and with it every reply nested under it',
        );
      }
      const body = await graph.post(`/${commentId}/manage_reply`, accessToken, { hide: String(hidden) });
      if (body.success === false) {
        throw new PlatformError('transient', 'threads did not confirm hiding the reply', { platform });
      }
    },
  };
}
