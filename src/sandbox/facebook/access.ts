/**
 * What every Facebook route checks of its caller: the platform's tokens and errors, the
 * scopes it names, and which objects a token may act on (a page answers its own page token).
 */
import type { FastifyRequest } from 'fastify';
import type { Caller, CallOptions } from '../caller.ts';
import { graph, graphAnswer, graphErrors } from '../meta/errors.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount, SandboxComment, SandboxPost } from '../schema.ts';
import { findComment } from '../store/comments.ts';
import { findPost } from '../store/posts.ts';

export const platform = 'facebook';
export const call: CallOptions = { platform, errors: graphErrors(platform, { revokedSubcode: 458 }) };
/** A publish also takes the faults set for `publish`. */
export const publishCall: CallOptions = { ...call, publishing: true };

export const SCOPE = {
  showList: 'pages_show_list',
  readEngagement: 'pages_read_engagement',
  readUserContent: 'pages_read_user_content',
  manageEngagement: 'pages_manage_engagement',
  managePosts: 'pages_manage_posts',
  manageMetadata: 'pages_manage_metadata',
};
/** `me` is the token's own account (the user, or the page for a page token). */
export function targetId(request: FastifyRequest, who: Caller): string {
  const { id } = request.params as { id: string };
  return id === 'me' ? who.account.id : id;
}

/**
 * Page objects answer page tokens of that page only. A user token naming one of its
 * granted pages is told (as Graph does) that a page token is needed; others see nothing.
 */
export function requirePageToken(who: Caller, pageId: string, objectId: string): void {
  if (who.account.id === pageId && who.account.kind === 'page') return;
  if (who.account.kind === 'user' && who.token.pageIds.includes(pageId)) {
    throw graphAnswer(400, 210, '(#210) A page access token is required to request this resource.');
  }
  throw graph.notFound(objectId);
}

/** A post by id, plain or Graph's `<page-id>_<post-id>`. */
export async function findPagePost(store: Store, id: string): Promise<SandboxPost | undefined> {
  const match = /^(\d+)_(\d+)$/.exec(id);
  if (!match) return findPost(store, id);
  const post = await findPost(store, match[2] as string);
  return post?.accountId === match[1] ? post : undefined;
}

export async function ownPost(store: Store, who: Caller, id: string): Promise<SandboxPost> {
  const post = await findPagePost(store, id);
  if (!post) throw graph.notFound(id);
  requirePageToken(who, post.accountId, id);
  return post;
}

export async function ownComment(store: Store, who: Caller, id: string): Promise<SandboxComment> {
  const comment = await findComment(store, id);
  if (!comment) throw graph.notFound(id);
  await ownPost(store, who, comment.postId);
  return comment;
}

/** The page itself, answered to its own page token. */
export function ownPage(who: Caller, id: string): SandboxAccount {
  requirePageToken(who, id, id);
  return who.account;
}
