import type { Store } from '../platform.ts';
import type { SandboxToken } from '../schema.ts';
import { issueToken } from '../store/grants.ts';

/** Instagram's and Threads' long-lived token answer, for the user of `source` with its scopes. */
export async function longLivedTokenAnswer(store: Store, source: SandboxToken, prefix: string, seconds: number) {
  const token = await issueToken(
    store,
    {
      platform: source.platform,
      accountId: source.accountId,
      kind: 'long',
      clientId: source.clientId,
      scopes: source.scopes,
      prefix,
    },
    seconds * 1000,
  );
  return { access_token: token.token, token_type: 'bearer', expires_in: seconds };
}
