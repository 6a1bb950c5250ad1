/**
 * A location's reviews (Google My Business API v4, accounts.locations.reviews): list, get, and the
 * location's answer set with updateReply (made, or replaced) and removed with deleteReply. A
 * review is a comment by another person with a star rating (the control API's `POST /comments`
 * with `rating`); its answer, the location's comment under it.
 */
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { googleRpc as google } from '../google/answers.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import { type SandboxAccount, type SandboxComment, sandboxComments, sandboxPosts } from '../schema.ts';
import { recordActivity, recordCommentDeletion } from '../store/activity.ts';
import { addComment, deleteComment } from '../store/comments.ts';
import { businessCaller, callerLocation } from './access.ts';

/** reviews.list: "The maximum pageSize is 50", and 50 when unset. */
const REVIEW_PAGE = 50;
/** A reply's comment: "The maximum length is 4096 bytes". */
const MAX_REPLY_BYTES = 4096;
const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'];

/** The location's reviews, newest first: the top-level comments on its posts. */
async function reviewsOf(store: Store, location: SandboxAccount): Promise<SandboxComment[]> {
  const rows = await store.db
    .select({ comment: sandboxComments })
    .from(sandboxComments)
    .innerJoin(sandboxPosts, eq(sandboxPosts.id, sandboxComments.postId))
    .where(and(eq(sandboxPosts.accountId, location.id), isNull(sandboxComments.parentId)))
    .orderBy(desc(sandboxComments.createdAt), desc(sandboxComments.id));
  return rows.map((r) => r.comment);
}

/** The location's answer to a review, if any. */
async function answerOf(store: Store, location: SandboxAccount, review: SandboxComment) {
  const [row] = await store.db
    .select()
    .from(sandboxComments)
    .where(and(eq(sandboxComments.parentId, review.id), eq(sandboxComments.authorId, location.id)))
    .orderBy(asc(sandboxComments.createdAt))
    .limit(1);
  return row;
}

async function renderReview(store: Store, location: SandboxAccount, review: SandboxComment) {
  const answer = await answerOf(store, location, review);
  const at = review.createdAt.toISOString();
  return {
    name: `${location.id}/reviews/${review.id}`,
    reviewId: review.id,
    reviewer: {
      displayName: review.authorUsername,
      profilePhotoUrl: `https://sandbox.switchboard.invalid/avatars/${review.authorId}.png`,
      isAnonymous: false,
    },
    starRating: STARS[(review.rating ?? 5) - 1] ?? 'STAR_RATING_UNSPECIFIED',
    ...(review.text === '' ? {} : { comment: review.text }),
    createTime: at,
    updateTime: (review.updatedAt ?? review.createdAt).toISOString(),
    ...(answer === undefined
      ? {}
      : { reviewReply: { comment: answer.text, updateTime: answer.createdAt.toISOString() } }),
  };
}

export function reviewRoutes(app: FastifyInstance, store: Store): void {
  const base = '/v4/accounts/:account/locations/:location/reviews';

  async function locationOf(request: FastifyRequest) {
    const who = await businessCaller(store, request);
    const { account, location } = request.params as { account: string; location: string };
    return callerLocation(store, who, `accounts/${account}/locations/${location}`);
  }

  /** The location's review the path names, or Google's 404. */
  async function reviewOf(request: FastifyRequest, location: SandboxAccount): Promise<SandboxComment> {
    const { review: id } = request.params as { review: string };
    const review = (await reviewsOf(store, location)).find((r) => r.id === id);
    if (review === undefined) throw google.notFound(`${location.id}/reviews/${id}`);
    return review;
  }

  app.get(base, async (request) => {
    const location = await locationOf(request);
    const raw = param(request, 'pageSize');
    const size = raw === undefined ? REVIEW_PAGE : Number(raw);
    if (!Number.isInteger(size) || size < 1 || size > REVIEW_PAGE) {
      throw google.badParameter(`Invalid page size ${raw}: at most ${REVIEW_PAGE}.`);
    }
    const all = await reviewsOf(store, location);
    const start = Math.max(0, Number(param(request, 'pageToken') ?? 0) || 0);
    const page = all.slice(start, start + size);
    const ratings = all.map((r) => r.rating ?? 5);
    return {
      reviews: await Promise.all(page.map((r) => renderReview(store, location, r))),
      averageRating: ratings.length === 0 ? 0 : ratings.reduce((a, b) => a + b, 0) / ratings.length,
      totalReviewCount: all.length,
      ...(start + size < all.length ? { nextPageToken: String(start + size) } : {}),
    };
  });

  // reviews.get: "Returns the specified review."
  app.get(`${base}/:review`, async (request) => {
    const location = await locationOf(request);
    return renderReview(store, location, await reviewOf(request, location));
  });

  app.put(`${base}/:review/reply`, async (request) => {
    const location = await locationOf(request);
    const review = await reviewOf(request, location);
    const comment = (request.body as { comment?: unknown } | undefined)?.comment;
    if (typeof comment !== 'string' || comment.trim() === '') throw google.badParameter('comment is required.');
    if (Buffer.byteLength(comment) > MAX_REPLY_BYTES) throw google.badParameter('comment is too long.');
    const previous = await answerOf(store, location, review);
    // One answer a review: a new one replaces it.
    if (previous !== undefined) await deleteComment(store, previous);
    const answer = await addComment(store, {
      postId: review.postId,
      parentId: review.id,
      authorId: location.id,
      authorUsername: location.username,
      text: comment,
    });
    await recordActivity(store, {
      accountId: location.id,
      action: previous === undefined ? 'reply' : 'update',
      targetId: review.id,
      detail: { text: comment },
    });
    return { comment: answer.text, updateTime: answer.createdAt.toISOString() };
  });

  app.delete(`${base}/:review/reply`, async (request) => {
    const location = await locationOf(request);
    const review = await reviewOf(request, location);
    const answer = await answerOf(store, location, review);
    if (answer === undefined) throw google.notFound(`${location.id}/reviews/${review.id}/reply`);
    await deleteComment(store, answer);
    await recordCommentDeletion(store, location.id, review.id);
    return {};
  });
}
