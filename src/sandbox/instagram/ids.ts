import { createHash } from 'node:crypto';
import type { SandboxAccount } from '../schema.ts';

/*
 * Instagram gives a professional account more than one id (Instagram API with Instagram Login,
 * "Get Started" and the webhook examples; docs/platforms.md, "Instagram account ids"): the
 * professional account id (IG_ID: `/me`'s `user_id`, webhooks' `entry.id`, the id in paths),
 * which the sandbox keeps as the account's id; an app-scoped id (`/me`'s `id`, the code
 * exchange's `user_id`); and the account's Instagram-scoped id (IGSID: a comment's `from.id`
 * when the account wrote it, the `self_ig_scoped_id` of its own comments' notices). The two
 * others are derived from the first, with lengths of their own, so no two ever meet.
 */
export function instagramAppScopedId(accountId: string): string {
  return derivedDigits('app-scoped', accountId, '2', 17);
}

export function instagramScopedId(accountId: string): string {
  return derivedDigits('ig-scoped', accountId, '3', 16);
}

function derivedDigits(kind: string, id: string, lead: string, length: number): string {
  const digest = createHash('sha256').update(`${kind}:${id}`).digest();
  let digits = lead;
  for (const byte of digest) {
    if (digits.length === length) break;
    digits += String(byte % 10);
  }
  return digits;
}

/** A post's link: `https://www.instagram.com/p/<id>/`. */
export function permalink(_account: SandboxAccount, postId: string): string {
  return `https://www.instagram.com/p/${postId}/`;
}
