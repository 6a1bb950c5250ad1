import type { SandboxAccount } from '../schema.ts';

/** A video's link, under its author's name. */
export function permalink(account: SandboxAccount, postId: string): string {
  return `https://www.tiktok.com/@${encodeURIComponent(account.username)}/video/${postId}`;
}
