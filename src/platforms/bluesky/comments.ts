/**
 * Replies to the account's posts, read by polling (Bluesky sends apps no notices): the account's
 * recent posts (app.bsky.feed.getAuthorFeed, replies left out), each post's thread
 * (app.bsky.feed.getPostThread, its replies at every depth, and its threadgate's
 * `hiddenReplies`); a reply written as the account (an app.bsky.feed.post record whose `reply`
 * names the thread's root and the answered reply), deleted (com.atproto.repo.deleteRecord), and
 * hidden or shown again by rewriting the root post's threadgate (app.bsky.feed.threadgate, keyed as
 * its post; only the post's author may), which keeps what else the gate says.
 * Facts: docs/platforms.md, "Bluesky replies".
 */
import { invalidRequest } from '../errors.ts';
import { list, record, requiredText, str } from '../http.ts';
import { pollingOnlyNotices } from '../polling-only.ts';
import { type CommentsCapability, type PlatformComment, PlatformError, type PlatformPostSummary } from '../types.ts';
import { type BlueskyContext, platform } from './api.ts';
import { permalinkOf, postOfUri } from './publishing.ts';
import { type BlueskySession, openSession } from './session.ts';
import { newTid } from './tid.ts';

const POST = 'app.bsky.feed.post';
const THREADGATE = 'app.bsky.feed.threadgate';
/** How deep a thread's replies are read (getPostThread `depth`, at most 1000). */
const THREAD_DEPTH = 20;

function parts(uri: string): { did: string; rkey: string } {
  const post = postOfUri(uri);
  if (post === null) throw invalidRequest(platform, `${uri} is not a Bluesky post's at:// URI`);
  return post;
}

function summaryOf(view: Record<string, unknown>): PlatformPostSummary | null {
  const uri = str(view.uri);
  const post = uri === null ? null : postOfUri(uri);
  if (uri === null || post === null) return null;
  const { did, rkey } = post;
  const value = record(view.record);
  const at = str(value.createdAt) ?? str(view.indexedAt);
  return {
    id: uri,
    text: str(value.text),
    permalink: permalinkOf(did, rkey),
    publishedAt: at === null ? null : new Date(at),
  };
}

interface StrongRef {
  uri: string;
  cid: string;
}

export function blueskyComments({ api, now }: BlueskyContext): CommentsCapability {
  async function postView(session: BlueskySession, uri: string): Promise<Record<string, unknown>> {
    const answer = await api.xrpc(session, 'GET', 'app.bsky.feed.getPosts', { query: { uris: uri } });
    const view = list(answer.posts).map(record)[0];
    if (view === undefined) throw invalidRequest(platform, `Bluesky shows no post ${uri}`);
    return view;
  }

  /** The thread a reply belongs to: its root post's strong ref. */
  function rootOf(view: Record<string, unknown>): StrongRef {
    const root = record(record(record(view.record).reply).root);
    const uri = str(root.uri);
    const cid = str(root.cid);
    if (uri !== null && cid !== null) return { uri, cid };
    return { uri: requiredText(platform, view.uri, 'uri'), cid: requiredText(platform, view.cid, 'cid') };
  }

  return {
    ...pollingOnlyNotices(platform, 'Bluesky sends apps no notices'),

    async recentComments(credentials, { posts = 10 } = {}) {
      const session = openSession(credentials.accessToken);
      const feed = await api.xrpc(session, 'GET', 'app.bsky.feed.getAuthorFeed', {
        query: {
          actor: credentials.platformUserId,
          filter: 'posts_no_replies',
          limit: Math.min(Math.max(posts, 1), 100),
        },
      });
      const summaries = list(feed.feed)
        .map((item) => record(record(item).post))
        // A repost of someone else's post is not the account's.
        .filter((view) => record(view.author).did === credentials.platformUserId)
        .map(summaryOf)
        .filter((p): p is PlatformPostSummary => p !== null)
        .slice(0, posts);
      const comments: PlatformComment[] = [];
      for (const post of summaries) {
        const answer = await api.xrpc(session, 'GET', 'app.bsky.feed.getPostThread', {
          query: { uri: post.id, depth: THREAD_DEPTH, parentHeight: 0 },
        });
        const gate = record(record(answer.threadgate).record);
        const hidden = new Set(list(gate.hiddenReplies).map((u) => str(u) ?? ''));
        const walk = (node: unknown, parentId: string | null) => {
          for (const raw of list(record(node).replies)) {
            const reply = record(raw);
            // A blocked or deleted reply (blockedPost, notFoundPost) has no post view: left out.
            if (reply.$type !== 'app.bsky.feed.defs#threadViewPost') continue;
            const view = record(reply.post);
            const id = str(view.uri);
            if (id === null) continue;
            const author = record(view.author);
            const value = record(view.record);
            const at = str(value.createdAt) ?? str(view.indexedAt);
            comments.push({
              id,
              postId: post.id,
              parentId,
              authorId: str(author.did),
              authorUsername: str(author.handle),
              text: str(value.text) ?? '',
              createdAt: at === null ? now() : new Date(at),
              hidden: hidden.has(id),
              byAccount: author.did === credentials.platformUserId,
            });
            walk(reply, id);
          }
        };
        walk(answer.thread, null);
      }
      comments.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      return { posts: summaries, comments, usagePercent: null };
    },

    async postSummary(credentials, postId) {
      const summary = summaryOf(await postView(openSession(credentials.accessToken), postId));
      if (summary === null) throw invalidRequest(platform, `Bluesky answered no post for ${postId}`);
      return summary;
    },

    async reply(credentials, commentId, text) {
      const session = openSession(credentials.accessToken);
      parts(commentId);
      const parent = await postView(session, commentId);
      const rkey = newTid(now());
      const answer = await api.xrpc(session, 'POST', 'com.atproto.repo.createRecord', {
        json: {
          repo: credentials.platformUserId,
          collection: POST,
          rkey,
          record: {
            $type: POST,
            text,
            createdAt: now().toISOString(),
            reply: {
              root: rootOf(parent),
              parent: {
                uri: requiredText(platform, parent.uri, 'uri'),
                cid: requiredText(platform, parent.cid, 'cid'),
              },
            },
          },
        },
      });
      return { state: 'sent', id: requiredText(platform, answer.uri, 'uri') };
    },

    async deleteReply(credentials, replyId) {
      const { did, rkey } = parts(replyId);
      if (did !== credentials.platformUserId)
        throw invalidRequest(platform, "only the account's own replies can be deleted");
      // Deleting a record that is gone already is no error ("deleteRecord": a no-op).
      await api.xrpc(openSession(credentials.accessToken), 'POST', 'com.atproto.repo.deleteRecord', {
        json: { repo: did, collection: POST, rkey },
      });
    },

    async setHidden(credentials, commentId, hidden) {
      const session = openSession(credentials.accessToken);
      const root = rootOf(await postView(session, commentId));
      const { did, rkey } = parts(root.uri);
      if (did !== credentials.platformUserId) {
        throw invalidRequest(platform, "only the thread's author hides replies in it (its threadgate)");
      }
      let gate: Record<string, unknown> = {};
      try {
        const found = await api.xrpc(session, 'GET', 'com.atproto.repo.getRecord', {
          query: { repo: did, collection: THREADGATE, rkey },
        });
        gate = record(found.value);
      } catch (error) {
        if (!(error instanceof PlatformError && error.detail.code === 'RecordNotFound')) throw error;
      }
      const listed = list(gate.hiddenReplies)
        .map((u) => str(u) ?? '')
        .filter((u) => u !== '' && u !== commentId);
      await api.xrpc(session, 'POST', 'com.atproto.repo.putRecord', {
        json: {
          repo: did,
          collection: THREADGATE,
          rkey,
          record: {
            ...gate,
            $type: THREADGATE,
            post: root.uri,
            createdAt: str(gate.createdAt) ?? now().toISOString(),
            hiddenReplies: hidden ? [...listed, commentId] : listed,
          },
        },
      });
    },
  };
}
