/**
 * Replies to the account's posts, read by polling (X sends an ordinary app no notices of them):
 * the account's recent posts (`GET /2/users/:id/tweets`), each post's conversation
 * (`GET /2/tweets/search/recent` with `conversation_id:`), a reply posted as the account
 * (`POST /2/tweets` in reply to it), hidden and shown again (`PUT /2/tweets/:id/hidden`).
 * Facts: docs/platforms.md, "X comments".
 */
import { invalidRequest, unsupported } from '../errors.ts';
import { list, record, requiredText, str } from '../http.ts';
import { type CommentsCapability, type PlatformComment, PlatformError, type PlatformPostSummary } from '../types.ts';
import type { XContext } from './api.ts';

const platform = 'x';
const POST_ID = /^\d{1,19}$/;
/** Search recent answers at most 100 posts a page: the replies read per post. */
const MAX_REPLIES_PER_POST = 100;
const TWEET_FIELDS = 'author_id,created_at,conversation_id,referenced_tweets';

function checkedId(id: string): string {
  if (!POST_ID.test(id)) throw invalidRequest(platform, `${id} is not an X post id`);
  return id;
}

function summaryOf(raw: unknown, username: string | null): PlatformPostSummary | null {
  const p = record(raw);
  const id = str(p.id);
  if (id === null) return null;
  const at = str(p.created_at);
  return {
    id,
    text: str(p.text),
    permalink: username === null ? `https://x.com/i/web/status/${id}` : `https://x.com/${username}/status/${id}`,
    publishedAt: at === null ? null : new Date(at),
  };
}

export function xComments({ api }: XContext): CommentsCapability {
  return {
    async recentComments({ platformUserId, accessToken }, { posts = 10 } = {}) {
      const me = record((await api.call('GET', '/users/me', accessToken)).data);
      const username = str(me.username);
      const timeline = await api.call('GET', `/users/${checkedId(platformUserId)}/tweets`, accessToken, {
        query: {
          max_results: Math.min(Math.max(posts, 5), 100),
          exclude: 'replies,retweets',
          'tweet.fields': 'created_at,conversation_id',
        },
      });
      const summaries = list(timeline.data)
        .map((raw) => summaryOf(raw, username))
        .filter((p): p is PlatformPostSummary => p !== null)
        .slice(0, posts);
      const comments: PlatformComment[] = [];
      for (const post of summaries) {
        const found = await api.call('GET', '/tweets/search/recent', accessToken, {
          query: {
            query: `conversation_id:${post.id}`,
            max_results: MAX_REPLIES_PER_POST,
            'tweet.fields': TWEET_FIELDS,
            expansions: 'author_id',
            'user.fields': 'username',
          },
        });
        const users = new Map(
          list(record(found.includes).users).map((u) => [str(record(u).id), str(record(u).username)] as const),
        );
        for (const raw of list(found.data)) {
          const reply = record(raw);
          const id = str(reply.id);
          const at = str(reply.created_at);
          if (id === null || at === null || id === post.id) continue;
          const parent = list(reply.referenced_tweets)
            .map(record)
            .find((r) => r.type === 'replied_to');
          const parentId = str(parent?.id);
          const authorId = str(reply.author_id);
          comments.push({
            id,
            postId: post.id,
            // A reply to the post itself is a top-level comment; one to another reply is under it.
            parentId: parentId === null || parentId === post.id ? null : parentId,
            authorId,
            authorUsername: users.get(authorId) ?? null,
            text: str(reply.text) ?? '',
            createdAt: new Date(at),
            // Search answers no hidden state: what the service hid, it records itself.
            hidden: false,
            byAccount: authorId === platformUserId,
          });
        }
      }
      comments.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      return { posts: summaries, comments, usagePercent: null };
    },

    parseCommentNotices() {
      throw unsupported(platform, 'comment notices (X sends an ordinary app none: replies are read)');
    },

    async subscribeNotices() {
      // Refused, so the account says `notices: "polling_only"`.
      throw unsupported(platform, 'comment notices (X sends an ordinary app none: replies are read)');
    },

    async commentTimes() {
      // Only a notice lacks a comment's time, and X sends none.
      return new Map();
    },

    async postSummary({ accessToken }, postId) {
      const answer = await api.call('GET', `/tweets/${checkedId(postId)}`, accessToken, {
        query: { 'tweet.fields': 'created_at', expansions: 'author_id', 'user.fields': 'username' },
      });
      const author = str(record(list(record(answer.includes).users)[0]).username);
      const summary = summaryOf(answer.data, author);
      if (summary === null) {
        throw invalidRequest(platform, str(record(list(answer.errors)[0]).detail) ?? `X has no post ${postId}`);
      }
      return summary;
    },

    async reply({ accessToken }, commentId, text) {
      if (text.trim() === '') throw invalidRequest(platform, 'a reply needs text');
      const created = await api.call('POST', '/tweets', accessToken, {
        json: { text, reply: { in_reply_to_tweet_id: checkedId(commentId) } },
      });
      return { state: 'sent', id: requiredText(platform, record(created.data).id, 'data.id') };
    },

    async deleteReply({ accessToken }, replyId) {
      // "Delete Post" (a reply is a post): `{"data": {"deleted": true}}`. A post X no longer has (404) was deleted before.
      let answer: Record<string, unknown>;
      try {
        answer = await api.call('DELETE', `/tweets/${checkedId(replyId)}`, accessToken);
      } catch (error) {
        if (error instanceof PlatformError && error.detail.status === 404) return;
        throw error;
      }
      if (record(answer.data).deleted !== true) {
        throw new PlatformError('transient', `x did not confirm the deletion of ${replyId}`, { platform });
      }
    },

    async setHidden({ accessToken }, commentId, hidden) {
      await api.call('PUT', `/tweets/${checkedId(commentId)}/hidden`, accessToken, { json: { hidden } });
    },
  };
}
