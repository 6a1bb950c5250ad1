import type { SandboxAccount, SandboxComment } from '../schema.ts';

/** A post's link, under its author's name. */
export function permalink(account: SandboxAccount, postId: string): string {
  return `https://www.threads.net/@${encodeURIComponent(account.username)}/post/${postId}`;
}

/** A Threads reply's link: replies are posts of their author's. */
export function threadsReplyPermalink(comment: SandboxComment): string {
  return `https://www.threads.net/@${encodeURIComponent(comment.authorUsername)}/post/${comment.id}`;
}
