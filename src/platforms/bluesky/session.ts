/**
 * A Bluesky account's credential as the service keeps it: the access token together with what
 * every call with it needs, the session's DPoP private key, the PDS and the authorization server
 * that issued it. It is what the adapter answers as the account's access token, so the service
 * seals it at rest as it seals every token, and hands it back for each call and refresh.
 */
import { PlatformError } from '../types.ts';
import { platform } from './api.ts';
import { type DpopKey, storedDpopKey } from './dpop.ts';

const PREFIX = 'bsky-session.';

export interface BlueskySession {
  accessToken: string;
  key: DpopKey;
  pds: string;
  issuer: string;
}

export function sealSession(session: BlueskySession): string {
  const kept = { t: session.accessToken, d: session.key.d, pds: session.pds, iss: session.issuer };
  return `${PREFIX}${Buffer.from(JSON.stringify(kept)).toString('base64url')}`;
}

/** The session a kept credential holds; one the adapter did not make cannot act: `token_expired`, to reconnect. */
export function openSession(credential: string): BlueskySession {
  try {
    if (!credential.startsWith(PREFIX)) throw new Error('not a session');
    const kept = JSON.parse(Buffer.from(credential.slice(PREFIX.length), 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const { t, d, pds, iss } = kept;
    if (typeof t !== 'string' || typeof d !== 'string' || typeof pds !== 'string' || typeof iss !== 'string') {
      throw new Error('incomplete');
    }
    return { accessToken: t, key: storedDpopKey(d), pds, issuer: iss };
  } catch {
    throw new PlatformError('token_expired', 'bluesky: the account holds no session this service made; reconnect it', {
      platform,
    });
  }
}
