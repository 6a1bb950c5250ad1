/**
 * Comments on an organization's posts (Comments API, `/rest/socialActions/{target}/comments`):
 * read by polling (LinkedIn pushes no comment notices to an ordinary app), answered as the
 * organization, the organization's own replies deleted. LinkedIn offers no hiding. A member's own
 * profile has none read. Facts: docs/platforms.md, "LinkedIn".
 */
import { invalidRequest, unsupported } from '../errors.ts';
import { list, num, record, str } from '../http.ts';
import { pollingOnlyNotices } from '../polling-only.ts';
import {
  type AccountCredentials,
  type CommentsCapability,
  type PlatformComment,
  PlatformError,
  type PlatformPostSummary,
} from '../types.ts';
import type { LinkedInContext } from './api.ts';
import { isPerson, organizationUrn } from './author.ts';

const platform = 'linkedin';
/** The most a page of the Comments API or the Posts API holds. */
const PAGE = 100;
/** First-level comments read per post: enough for any recent post, bounded against a viral one. */
const MAX_COMMENTS_PER_POST = 500;
/**
 * The comments whose replies one read takes ("Get Comments on Comments" is a call per comment),
 * newest first; and the replies read under each. Bounds against a post with many threads.
 */
const MAX_THREADS_PER_READ = 100;
const MAX_REPLIES_PER_COMMENT = 100;
/** `urn:li:comment:({the post's activity or ugcPost URN},{id})`: the post part is what a reply's `object` names. */
const COMMENT_URN = /^urn:li:comment:\((urn:li:[A-Za-z]+:\d+),(\d+)\)$/;

const path = (urn: string) => encodeURIComponent(urn);

function postSummary(raw: unknown): PlatformPostSummary | null {
  const p = record(raw);
  const id = str(p.id);
  if (id === null) return null;
  const at = num(p.publishedAt) ?? num(p.createdAt);
  return {
    id,
    text: str(p.commentary),
    permalink: `https://www.linkedin.com/feed/update/${id}`,
    publishedAt: at === null ? null : new Date(at),
  };
}

/**
 * Whether a first-level comment has replies to read: its `commentsSummary` counts them; a
 * comment without one is read, the cautious side.
 */
function hasReplies(raw: unknown): boolean {
  const summary = record(record(raw).commentsSummary);
  const count = num(summary.totalFirstLevelComments) ?? num(summary.aggregatedTotalComments);
  return count === null || count > 0;
}

/** A first-level comment, or a reply when it names a `parentComment`. */
function toComment(raw: unknown, postId: string, organization: string): PlatformComment | null {
  const c = record(raw);
  const id = str(c.commentUrn) ?? str(c.$URN);
  const time = num(record(c.created).time);
  if (id === null || time === null) return null;
  const actor = str(c.actor);
  return {
    id,
    postId,
    parentId: str(c.parentComment),
    // A comment names its author's URN only (a member or an organization), not a name.
    authorId: actor,
    authorUsername: null,
    text: str(record(c.message).text) ?? '',
    createdAt: new Date(time),
    hidden: false,
    byAccount: actor === organization,
  };
}

export function linkedinComments({ api }: LinkedInContext): CommentsCapability {
  async function readAll(token: string, target: string, max: number): Promise<unknown[]> {
    const elements: unknown[] = [];
    for (let start = 0; elements.length < max; start += PAGE) {
      const page = await api.restObject('GET', `/socialActions/${path(target)}/comments`, token, {
        query: { start, count: PAGE },
      });
      const got = list(page.elements);
      elements.push(...got);
      if (got.length < PAGE) break;
    }
    return elements.slice(0, max);
  }

  return {
    async recentComments({ platformUserId, accessToken }, { posts = 10 } = {}) {
      // A member's own posts' comments take r_member_social, which LinkedIn grants "to select
      // developers only": nothing is read for the member's profile, and no call is made.
      if (isPerson(platformUserId)) return { posts: [], comments: [], usagePercent: null };
      const organization = organizationUrn(platformUserId);
      const listed = await api.restObject('GET', '/posts', accessToken, {
        query: { q: 'author', author: organization, count: Math.min(posts, PAGE), sortBy: 'CREATED' },
      });
      const summaries = list(listed.elements)
        .map(postSummary)
        .filter((p): p is PlatformPostSummary => p !== null);
      const comments: PlatformComment[] = [];
      const threads: PlatformComment[] = [];
      for (const { id } of summaries) {
        for (const raw of await readAll(accessToken, id, MAX_COMMENTS_PER_POST)) {
          const comment = toComment(raw, id, organization);
          if (comment === null) continue;
          comments.push(comment);
          if (hasReplies(raw)) threads.push(comment);
        }
      }
      // The replies under the newest comments ("Get Comments on Comments"), each naming its parent.
      threads.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      for (const parent of threads.slice(0, MAX_THREADS_PER_READ)) {
        for (const raw of await readAll(accessToken, parent.id, MAX_REPLIES_PER_COMMENT)) {
          const reply = toComment(raw, parent.postId, organization);
          if (reply !== null) comments.push({ ...reply, parentId: reply.parentId ?? parent.id });
        }
      }
      comments.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      // LinkedIn's limits show only as 429 refusals: no usage header to report.
      return { posts: summaries, comments, usagePercent: null };
    },

    ...pollingOnlyNotices(platform, 'LinkedIn sends ordinary apps none'),

    async postSummary({ platformUserId, accessToken }, postId) {
      if (isPerson(platformUserId)) throw unsupported(platform, "reading a member's posts (r_member_social)");
      const summary = postSummary(await api.restObject('GET', `/posts/${path(postId)}`, accessToken));
      if (summary === null)
        throw new PlatformError('transient', 'linkedin answered a post without its id', { platform });
      return summary;
    },

    async reply({ platformUserId, accessToken }: AccountCredentials, commentId, text) {
      if (isPerson(platformUserId)) throw unsupported(platform, "comments on a member's posts (r_member_social)");
      const object = COMMENT_URN.exec(commentId)?.[1];
      if (object === undefined) throw invalidRequest(platform, `${commentId} is not a comment URN`);
      if (text.trim() === '') throw invalidRequest(platform, 'a reply needs text');
      // A reply is a comment created under the comment: the comment is the target and its parent.
      const created = await api.restObject('POST', `/socialActions/${path(commentId)}/comments`, accessToken, {
        json: { actor: organizationUrn(platformUserId), object, message: { text }, parentComment: commentId },
      });
      const id = str(created.commentUrn) ?? str(created.$URN);
      if (id === null) {
        throw new PlatformError('transient', 'linkedin created the reply without naming it (no commentUrn)', {
          platform,
        });
      }
      return { state: 'sent', id };
    },

    async deleteReply({ platformUserId, accessToken }: AccountCredentials, replyId, parentId) {
      const id = COMMENT_URN.exec(replyId)?.[2];
      if (id === undefined) throw invalidRequest(platform, `${replyId} is not a comment URN`);
      // "Delete a Comment": the reply is a comment under its parent comment, deleted as the organization.
      try {
        await api.rest('DELETE', `/socialActions/${path(parentId)}/comments/${id}`, accessToken, {
          query: { actor: organizationUrn(platformUserId) },
        });
      } catch (error) {
        // A reply LinkedIn no longer has was deleted before (by an earlier try or on LinkedIn).
        if (error instanceof PlatformError && error.detail.status === 404) return;
        throw error;
      }
    },

    async setHidden() {
      throw unsupported(platform, 'hiding comments');
    },
  };
}
