/**
 * A location's reviews as its comments, read by polling and, where the deployment runs a Pub/Sub
 * topic, on Google's notifications (notices.ts) (Google My Business API v4,
 * accounts.locations.reviews): `reviews.list` newest first, each review a comment with its star
 * rating and the location's answer (`reviewReply`) a reply of the account's own under it; an
 * answer is `reviews.updateReply` (a second one replaces it) and its removal `reviews.deleteReply`.
 * Reviews cannot be hidden. A location's reviews belong to one post record, the location itself.
 * Facts: docs/platforms.md, "Google Business Profile reviews".
 */
import { invalidRequest, unsupported } from '../errors.ts';
import { list, record, str } from '../http.ts';
import { type CommentsCapability, type PlatformComment, PlatformError } from '../types.ts';
import type { GoogleBusinessContext } from './locations.ts';
import { googleBusinessNotices } from './notices.ts';

const platform = 'google_business';
/** reviews.list's largest page ("The maximum pageSize is 50"). */
const REVIEW_PAGE = 50;
/** Pages of reviews read a poll: the 200 newest, far more than a location gets between two polls. */
const REVIEW_PAGES = 4;
/** StarRating as the number of stars. */
const STARS: Readonly<Record<string, number>> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };
/** A review's answer is named after the review: Google gives it no id of its own. */
const replyIdOf = (reviewName: string) => `${reviewName}/reply`;

/** A review and its answer as comments, or none when it lacks a name or a time. */
function reviewComments(raw: unknown, location: string): PlatformComment[] {
  const review = record(raw);
  const name = str(review.name);
  const at = Date.parse(str(review.createTime) ?? '');
  if (name === null || Number.isNaN(at)) return [];
  // "The timestamp for when the review was last modified": its words and stars are taken again when it is later.
  const modified = Date.parse(str(review.updateTime) ?? '');
  const reviewer = record(review.reviewer);
  const comments: PlatformComment[] = [
    {
      id: name,
      postId: location,
      parentId: null,
      // Google names a reviewer, without an id; an anonymous one by no name.
      authorId: null,
      authorUsername: reviewer.isAnonymous === true ? null : str(reviewer.displayName),
      // A rating may come without words.
      text: str(review.comment) ?? '',
      createdAt: new Date(at),
      hidden: false,
      byAccount: false,
      rating: STARS[str(review.starRating) ?? ''] ?? null,
      editedAt: Number.isNaN(modified) ? null : new Date(modified),
    },
  ];
  const answer = record(review.reviewReply);
  const answered = Date.parse(str(answer.updateTime) ?? '');
  if (str(answer.comment) !== null && !Number.isNaN(answered)) {
    comments.push({
      id: replyIdOf(name),
      postId: location,
      parentId: name,
      authorId: location,
      authorUsername: null,
      text: str(answer.comment) ?? '',
      createdAt: new Date(answered),
      hidden: false,
      byAccount: true,
    });
  }
  return comments;
}

export function googleBusinessReviews(context: GoogleBusinessContext): CommentsCapability {
  const { google } = context;
  const v4 = (path: string) => google.url('mybusiness.googleapis.com', `/v4/${path}`);

  return {
    async recentComments({ platformUserId, accessToken }) {
      const comments: PlatformComment[] = [];
      let pageToken: string | null = null;
      for (let n = 0; n < REVIEW_PAGES; n += 1) {
        const answer = await google.api('GET', v4(`${platformUserId}/reviews`), accessToken, {
          query: { pageSize: REVIEW_PAGE, orderBy: 'updateTime desc', ...(pageToken === null ? {} : { pageToken }) },
        });
        for (const review of list(answer.reviews)) comments.push(...reviewComments(review, platformUserId));
        pageToken = str(answer.nextPageToken);
        if (pageToken === null || pageToken === '') break;
      }
      comments.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      const location = { id: platformUserId, text: null, permalink: null, publishedAt: null };
      return { posts: [location], comments, usagePercent: null };
    },

    ...googleBusinessNotices(context),

    async commentTimes() {
      // Google's notifications name the review, which is read whole (readComments).
      return new Map();
    },

    async readComments({ platformUserId, accessToken }, commentIds) {
      const comments: PlatformComment[] = [];
      for (const name of new Set(commentIds)) {
        // Only the location's own reviews are read with its token.
        if (!name.startsWith(`${platformUserId}/reviews/`)) continue;
        try {
          comments.push(...reviewComments(await google.api('GET', v4(name), accessToken), platformUserId));
        } catch (error) {
          // Deleted by its author since: left out.
          if (error instanceof PlatformError && error.detail.status === 404) continue;
          throw error;
        }
      }
      return comments;
    },

    async postSummary(_credentials, postId) {
      // The post reviews belong to is the location itself.
      return { id: postId, text: null, permalink: null, publishedAt: null };
    },

    async reply({ accessToken }, commentId, text) {
      if (text.trim() === '') throw invalidRequest(platform, 'a reply needs text');
      if (commentId.endsWith('/reply')) throw invalidRequest(platform, "a review's answer cannot be answered");
      // updateReply: "Updates the reply to the specified review. A reply is created if one does not exist."
      await google.api('PUT', v4(`${commentId}/reply`), accessToken, { json: { comment: text } });
      return { state: 'sent', id: replyIdOf(commentId) };
    },

    async deleteReply({ accessToken }, _replyId, parentId) {
      try {
        await google.apiEmpty('DELETE', v4(`${parentId}/reply`), accessToken);
      } catch (error) {
        // No answer to delete (deleted before): done.
        if (error instanceof PlatformError && error.detail.status === 404) return;
        throw error;
      }
    },

    async setHidden() {
      throw unsupported(platform, 'hiding reviews');
    },
  };
}
