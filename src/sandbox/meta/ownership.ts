/** What an Instagram or Threads token may act on: its account's own posts, and the comments under them. */
import type { Caller } from '../caller.ts';
import type { Store } from '../platform.ts';
import type { SandboxComment, SandboxPost } from '../schema.ts';
import { findComment } from '../store/comments.ts';
import { findPost } from '../store/posts.ts';
import { graph } from './errors.ts';

/** The post, when it belongs to the caller; else Graph's "does not exist" error. */
export async function ownPost(store: Store, who: Caller, id: string): Promise<SandboxPost> {
  const post = await findPost(store, id);
  if (!post || post.accountId !== who.account.id) throw graph.notFound(id);
  return post;
}

/** A comment (or reply) under one of the caller's posts. */
export async function ownComment(store: Store, who: Caller, id: string): Promise<SandboxComment> {
  const comment = await findComment(store, id);
  if (!comment) throw graph.notFound(id);
  await ownPost(store, who, comment.postId);
  return comment;
}
