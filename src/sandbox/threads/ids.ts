import type { SandboxComment } from '../schema.ts';

/** A Threads reply's link: replies are posts of their author's. */
export function threadsReplyPermalink(comment: SandboxComment): string {
  return `https://www.threads.net/@${encodeURIComponent(comment.authorUsername)}/post/${comment.id}`;
}
