/**
 * What TikTok refuses of a post before taking it (Direct Post reference and guidelines): a
 * privacy level the creator is not offered, and with the sandbox's settings an unaudited
 * app's posts (private accounts only, SELF_ONLY, 5 posting users a day) and a PULL_FROM_URL
 * outside the URLs the app verified.
 */

import { DAY_MS } from '../../days.ts';
import type { SandboxAnswer } from '../answers.ts';
import type { Caller } from '../caller.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { accountsWithContainersOfApp } from '../store/containers.ts';
import { commaList, oneOf } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { tiktokAnswer } from './envelope.ts';

/** `unaudited`: as TikTok treats an app before its audit (private accounts only, SELF_ONLY posts, 5 posting users a day). */
export const CLIENT_AUDIT = oneOf('tiktok_client_audit', ['audited', 'unaudited']);
/** The URL prefixes (or domains) the app verified for PULL_FROM_URL; `*`: every one. */
export const VERIFIED_URL_PREFIXES = commaList('tiktok_verified_url_prefixes', '*');

/**
 * The privacy levels creator_info offers, by the account's privacy (Query Creator Info
 * reference, privacy_level_options): a public account's, and a private account's, which
 * has followers instead of everyone.
 */
const PUBLIC_ACCOUNT_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
const PRIVATE_ACCOUNT_PRIVACY_LEVELS = ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
/** An unaudited app may post only this (TikTok's Direct Post guidelines). */
const UNAUDITED_PRIVACY = 'SELF_ONLY';
/** Distinct users an unaudited app may have posting in 24 hours. */
const UNAUDITED_USER_CAP = 5;

export function privacyLevelOptions(account: SandboxAccount): string[] {
  return account.private ? PRIVATE_ACCOUNT_PRIVACY_LEVELS : PUBLIC_ACCOUNT_PRIVACY_LEVELS;
}

/**
 * Whether `url` is under a verified `prefix`: a URL prefix (`https://cdn.example.com/videos/`)
 * or a domain (`cdn.example.com`, also its subdomains).
 */
function urlUnder(url: string, prefix: string): boolean {
  const target = new URL(url);
  if (!/^https?:\/\//.test(prefix)) return target.hostname === prefix || target.hostname.endsWith(`.${prefix}`);
  let root: URL;
  try {
    root = new URL(prefix);
  } catch {
    return false;
  }
  // Parsed, not as text: `https://cdn.example.com.evil.test/` is not under `https://cdn.example.com`.
  return target.origin === root.origin && target.pathname.startsWith(root.pathname);
}

/** A posting refusal, as TikTok's Direct Post reference lists them (HTTP 403). */
export function postingRefusal(code: string, message: string): SandboxAnswer {
  return tiktokAnswer(403, code, message);
}

/** Throws the refusal TikTok answers a post of this privacy and video URL with, if any. */
export async function checkPostingRules(store: Store, who: Caller, privacy: string, videoUrl: string): Promise<void> {
  if ((await getSetting(store, CLIENT_AUDIT)) === 'unaudited') {
    // The Direct Post reference's error table: "Unaudited clients can only post to a
    // private account. The publish attempt will be blocked", whatever the post's privacy.
    if (!who.account.private) {
      throw postingRefusal(
        'unaudited_client_can_only_post_to_private_accounts',
        'Unaudited clients can only post to a private account',
      );
    }
    // "Unaudited API Clients can only post contents in SELF_ONLY viewership" (Content
    // Sharing Guidelines). TikTok does not say how it refuses another level from a
    // private account; the sandbox answers the one unaudited refusal it documents.
    if (privacy !== UNAUDITED_PRIVACY) {
      throw postingRefusal(
        'unaudited_client_can_only_post_to_private_accounts',
        'Unaudited clients can only post SELF_ONLY content',
      );
    }
    const posters = await accountsWithContainersOfApp(
      store,
      who.token.clientId,
      new Date(store.now().getTime() - DAY_MS),
    );
    if (!posters.includes(who.account.id) && posters.length >= UNAUDITED_USER_CAP) {
      throw postingRefusal(
        'reached_active_user_cap',
        'The daily quota for active publishing users from your client is reached',
      );
    }
  }
  const verified = (await getSetting(store, VERIFIED_URL_PREFIXES))
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (!verified.includes('*') && !verified.some((prefix) => urlUnder(videoUrl, prefix))) {
    throw postingRefusal(
      'url_ownership_unverified',
      'To use PULL_FROM_URL, the developer must verify the ownership of the URL prefix or domain',
    );
  }
}
