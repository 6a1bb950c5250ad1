import type { SandboxAccount } from '../schema.ts';

/** A post's link, under its page's id. */
export function permalink(page: SandboxAccount, postId: string): string {
  return `https://www.facebook.com/${page.id}/posts/${postId}`;
}
