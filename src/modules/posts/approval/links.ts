/**
 * A client's approval of a post: single-use approval links to a hosted page where the client,
 * without an account, approves the post or asks for changes. A post that needs approval is
 * never published before it is approved: its targets wait as `awaiting_approval` (no job is
 * queued for them), and approving moves them to `scheduled`, due at the post's time, or at
 * once when that time has passed.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';
import { now } from '../../../clock.ts';
import { DAY_MS } from '../../../days.ts';
import type { Db, Queryable, Tx } from '../../../db/connection.ts';
import { ApiError, errors } from '../../../http/errors.ts';
import type { RequestOrigin } from '../../../http/request-origin.ts';
import type { Scope } from '../../../http/scope.ts';
import { newId } from '../../../ids.ts';
import { transition } from '../../../jobs/workflow.ts';
import { sha256Hex } from '../../../secrets.ts';
import { recordAuditEntry } from '../../audit/index.ts';
import { emit } from '../../events/index.ts';
import { lockPost, refreshPostStatus } from '../post-status.ts';
import { startOf } from '../publishing/ahead.ts';
import { queuePublish } from '../publishing/publish-jobs.ts';
import { findVisiblePost } from '../service.ts';
import {
  type ApprovalDecision,
  type Post,
  type PostApprovalLink,
  postApprovalLinks,
  posts,
  postTargets,
} from '../tables.ts';
import { targetStates } from '../target-workflow.ts';

/** How long an approval link works: a client may take days to look. */
export const APPROVAL_LINK_LIFETIME_MS = 7 * DAY_MS;
/** The longest comment a client may write with a decision. */
export const MAX_APPROVAL_COMMENT_LENGTH = 5000;

function tokenHash(token: string): string {
  return sha256Hex(token);
}

/** What a link's record shows: open until it expires, is revoked or is used. */
export type ApprovalLinkState = 'open' | 'used' | 'expired' | 'revoked';

export function linkState(link: PostApprovalLink, at: Date): ApprovalLinkState {
  if (link.usedAt !== null) return 'used';
  if (link.revokedAt !== null) return 'revoked';
  return link.expiresAt.getTime() <= at.getTime() ? 'expired' : 'open';
}

/** Why no link can be made for the post now, or null when one can. */
function linkRefusal(post: Post, waiting: boolean): ApiError | null {
  if (post.source !== 'api' || !post.approvalRequired) {
    return new ApiError(
      409,
      'approval_not_required',
      'The post needs no approval; PATCH it with {"approval": {"required": true}} first.',
    );
  }
  if (post.approvalStatus === 'approved' || !waiting) {
    return new ApiError(
      409,
      'post_not_awaiting_approval',
      post.approvalStatus === 'approved'
        ? 'The client has approved this version of the post already; an edit (PATCH) makes it need approval again.'
        : `The post is ${post.status}: there is nothing left to approve.`,
    );
  }
  return null;
}

/** True when every target of the post still waits: as a draft, or for the approval. */
async function targetsWait(db: Queryable, postId: string): Promise<boolean> {
  const rows = await db.select({ status: postTargets.status }).from(postTargets).where(eq(postTargets.postId, postId));
  return rows.length > 0 && rows.every((r) => r.status === 'draft' || r.status === 'awaiting_approval');
}

/**
 * A new approval link for a post that waits for its client's approval (or a draft that will).
 * Answers the link and its token, which is in the URL only: the service keeps its hash.
 */
export async function createApprovalLink(
  db: Db,
  scope: Scope,
  postId: string,
): Promise<{ link: PostApprovalLink; token: string }> {
  return await db.transaction(async (tx) => {
    const post = await findVisiblePost(tx, scope, postId, true);
    const refusal = linkRefusal(post, await targetsWait(tx, post.id));
    if (refusal) throw refusal;
    const token = randomBytes(32).toString('base64url');
    const at = now();
    const [link] = await tx
      .insert(postApprovalLinks)
      .values({
        id: newId('approvalLink'),
        ownerId: post.ownerId,
        profileId: post.profileId,
        postId: post.id,
        tokenHash: tokenHash(token),
        expiresAt: new Date(at.getTime() + APPROVAL_LINK_LIFETIME_MS),
        createdAt: at,
      })
      .returning();
    if (!link) throw new Error('the approval link was not inserted');
    return { link, token };
  });
}

/** A page (`limit + 1` links, newest first) of the post's approval links, before the id `before`. */
export async function listApprovalLinks(
  db: Db,
  scope: Scope,
  postId: string,
  page: { limit: number; before?: string | undefined },
): Promise<PostApprovalLink[]> {
  const post = await findVisiblePost(db, scope, postId, false);
  return await db
    .select()
    .from(postApprovalLinks)
    .where(
      and(
        eq(postApprovalLinks.postId, post.id),
        page.before === undefined ? undefined : lt(postApprovalLinks.id, page.before),
      ),
    )
    .orderBy(desc(postApprovalLinks.id))
    .limit(page.limit + 1);
}

function approvalLinkNotFound(id: string): ApiError {
  return new ApiError(404, 'approval_link_not_found', `No approval link ${JSON.stringify(id)} of this post.`);
}

/**
 * Revokes a link: it opens nothing from then on. A link already used keeps its decision
 * (409 `approval_link_used`); revoking twice changes nothing.
 */
export async function revokeApprovalLink(
  db: Db,
  scope: Scope,
  postId: string,
  linkId: string,
): Promise<PostApprovalLink> {
  return await db.transaction(async (tx) => {
    const post = await findVisiblePost(tx, scope, postId, true);
    const [link] = await tx
      .select()
      .from(postApprovalLinks)
      .where(and(eq(postApprovalLinks.postId, post.id), eq(postApprovalLinks.id, linkId)))
      .for('update');
    if (!link) throw approvalLinkNotFound(linkId);
    if (link.usedAt !== null) {
      throw new ApiError(
        409,
        'approval_link_used',
        'The client has decided through this link already; it cannot be revoked.',
      );
    }
    if (link.revokedAt !== null) return link;
    const [revoked] = await tx
      .update(postApprovalLinks)
      .set({ revokedAt: now() })
      .where(eq(postApprovalLinks.id, link.id))
      .returning();
    return revoked ?? link;
  });
}

/** What a token opens: nothing, a link that no longer works (and why), or a link to decide through. */
export type ApprovalLookup =
  | { kind: 'unknown' }
  | { kind: 'closed'; state: Exclude<ApprovalLinkState, 'open'>; link: PostApprovalLink; post: Post }
  | { kind: 'open'; link: PostApprovalLink; post: Post };

export async function lookUpApprovalLink(db: Queryable, token: string): Promise<ApprovalLookup> {
  if (token.length > 200) return { kind: 'unknown' };
  const [row] = await db
    .select({ link: postApprovalLinks, post: posts })
    .from(postApprovalLinks)
    .innerJoin(posts, eq(posts.id, postApprovalLinks.postId))
    .where(eq(postApprovalLinks.tokenHash, tokenHash(token)));
  if (!row) return { kind: 'unknown' };
  const state = linkState(row.link, now());
  return state === 'open' ? { kind: 'open', ...row } : { kind: 'closed', state, ...row };
}

/** A post's targets as the approval page shows them, in the post's order. */
export async function targetsForApproval(db: Queryable, postId: string) {
  return await db
    .select({
      id: postTargets.id,
      accountId: postTargets.accountId,
      platform: postTargets.platform,
      status: postTargets.status,
    })
    .from(postTargets)
    .where(eq(postTargets.postId, postId))
    .orderBy(asc(postTargets.id));
}

/** A decision as the page sends it. */
export interface ApprovalInput {
  decision: ApprovalDecision;
  /** Required when asking for changes; optional with an approval. */
  comment: string | null;
  /** The post's `updated_at` the page showed: a decision is on what the client saw. */
  version: string;
}

export type DecisionOutcome =
  | { kind: 'decided'; decision: ApprovalDecision; post: Post }
  | { kind: 'closed'; state: Exclude<ApprovalLinkState, 'open'> | 'unknown' }
  /** The post changed since the page was shown: the client must look again. */
  | { kind: 'changed' }
  /** Nothing is left to decide: the post was cancelled, published, or no longer needs approval. */
  | { kind: 'not_awaiting'; post: Post };

/**
 * Records the client's decision through a link, once: the link is used, the post's approval
 * says what was decided, when and through which link, and `post.approved` or
 * `post.changes_requested` is sent. Approving schedules the waiting targets.
 */
export async function decideApproval(
  db: Db,
  token: string,
  input: ApprovalInput,
  origin: RequestOrigin,
): Promise<DecisionOutcome> {
  return await db.transaction(async (tx) => {
    const byToken = eq(postApprovalLinks.tokenHash, tokenHash(token));
    const [found] = await tx.select({ postId: postApprovalLinks.postId }).from(postApprovalLinks).where(byToken);
    if (!found) return { kind: 'closed', state: 'unknown' };
    // The post first, then its link: the order revoking (and every change of a post) takes.
    await lockPost(tx, found.postId);
    const [link] = await tx.select().from(postApprovalLinks).where(byToken).for('update');
    if (!link) return { kind: 'closed', state: 'unknown' };
    const at = now();
    const state = linkState(link, at);
    if (state !== 'open') return { kind: 'closed', state };
    const [post] = await tx.select().from(posts).where(eq(posts.id, link.postId));
    if (!post) return { kind: 'closed', state: 'unknown' };
    if (linkRefusal(post, await targetsWait(tx, post.id))) return { kind: 'not_awaiting', post };
    if (post.updatedAt.toISOString() !== input.version) return { kind: 'changed' };

    await tx
      .update(postApprovalLinks)
      .set({ usedAt: at, decision: input.decision, comment: input.comment })
      .where(eq(postApprovalLinks.id, link.id));
    const decided = await recordDecision(tx, post, input, at, { linkId: link.id, decidedBy: null });
    await recordAuditEntry(tx, {
      ownerId: post.ownerId,
      profileId: post.profileId,
      actor: { type: 'approval_link', id: link.id },
      via: 'approval_page',
      operation: 'POST /approve/{token}',
      objectId: post.id,
      status: 200,
      origin,
    });
    return { kind: 'decided', decision: input.decision, post: decided };
  });
}

/**
 * What a decision does, wherever it came from: it is recorded on the post, an approval schedules
 * the waiting targets, and `post.approved` or `post.changes_requested` is sent.
 */
async function recordDecision(
  tx: Tx,
  post: Post,
  input: Pick<ApprovalInput, 'decision' | 'comment'>,
  at: Date,
  source: { linkId: string | null; decidedBy: string | null },
): Promise<Post> {
  await tx
    .update(posts)
    .set({
      approvalStatus: input.decision,
      approvalDecidedAt: at,
      approvalLinkId: source.linkId,
      approvalDecidedBy: source.decidedBy,
      approvalComment: input.comment,
    })
    .where(eq(posts.id, post.id));
  if (input.decision === 'approved') await scheduleApproved(tx, post, at);
  const decided = await refreshPostStatus(tx, post.id);
  await emit(tx, {
    ownerId: post.ownerId,
    profileId: post.profileId,
    type: input.decision === 'approved' ? 'post.approved' : 'post.changes_requested',
    data: {
      post_id: post.id,
      approval_link_id: source.linkId,
      decided_by: source.decidedBy,
      comment: input.comment,
      decided_at: at.toISOString(),
      scheduled_at: post.scheduledAt.toISOString(),
    },
  });
  return decided;
}

/**
 * Records a decision made through the API (a client member in the dashboard, or whoever the
 * caller is), by `decidedBy` (a member's or a key's id), on the post as the caller sees it. With
 * `version`, only on that version of the post (409 `post_changed` otherwise).
 */
export async function decideInApi(
  db: Db,
  scope: Scope,
  postId: string,
  input: Pick<ApprovalInput, 'decision' | 'comment'> & { version?: string | undefined },
  decidedBy: string,
  /** Whether the caller may decide on a post of this profile (a member, by its role there). */
  mayDecideIn: (profileId: string) => boolean,
): Promise<Post> {
  return await db.transaction(async (tx) => {
    await lockPost(tx, (await findVisiblePost(tx, scope, postId, false)).id);
    // Read again under the lock: the decision is on the post as it is now.
    const post = await findVisiblePost(tx, scope, postId, false);
    if (!mayDecideIn(post.profileId)) throw errors.roleRequired('client or admin', `profile ${post.profileId}`);
    const refusal = linkRefusal(post, await targetsWait(tx, post.id));
    if (refusal) throw refusal;
    if (input.version !== undefined && post.updatedAt.toISOString() !== input.version) {
      throw new ApiError(
        409,
        'post_changed',
        `The post changed since that version: it is now ${post.updatedAt.toISOString()}. Look at it again, then decide.`,
      );
    }
    return await recordDecision(tx, post, input, now(), { linkId: null, decidedBy });
  });
}

/** The approved post's waiting targets become due at its time, or at once when it has passed. */
async function scheduleApproved(tx: Tx, post: Post, at: Date): Promise<void> {
  const waiting = await tx
    .select({ id: postTargets.id, platform: postTargets.platform })
    .from(postTargets)
    .where(and(eq(postTargets.postId, post.id), inArray(postTargets.status, ['awaiting_approval'])));
  for (const target of waiting) {
    // Its start: the post's time, or its platform's lead before it (an upload published ahead).
    const start = startOf(post, target.platform);
    await transition(tx, targetStates, target.id, 'approve');
    await queuePublish(tx, target.id, start.getTime() > at.getTime() ? start : at);
  }
}
