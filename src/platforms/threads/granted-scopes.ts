/**
 * Which scopes a new Threads token carries. The code exchange does not say; debug_token does,
 * answered only to a tester of the app (the operator's THREADS_TESTER_TOKEN).
 */
import { list, num, record, str } from '../http.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { PlatformError } from '../types.ts';

const platform = 'threads';

/**
 * debug_token's `data` on `inputToken`. Threads answers it only to a user token of a
 * tester of the same app ("Debug Access Token",
 * https://developers.facebook.com/docs/threads/troubleshooting/debug-access-token).
 * Null when Threads refuses the tester token (it runs out too, unless the operator renews it).
 */
async function debugToken(
  { graph }: GraphContext,
  inputToken: string,
  testerToken: string,
): Promise<Record<string, unknown> | null> {
  try {
    return record((await graph.get('/debug_token', testerToken, { input_token: inputToken })).data);
  } catch (error) {
    if (error instanceof PlatformError && error.kind !== 'transient' && error.kind !== 'rate_limited') return null;
    throw error;
  }
}

/** The scopes of a live token's debug_token data, or the PlatformError a dead token means. */
function liveScopes(data: Record<string, unknown>, now: Date): string[] {
  const expiresAt = num(data.expires_at);
  // 0 means a token that does not expire.
  const expired = expiresAt !== null && expiresAt > 0 && expiresAt * 1000 <= now.getTime();
  if (data.is_valid === true && !expired) {
    return list(data.scopes)
      .map(str)
      .filter((s): s is string => s !== null);
  }
  const error = record(data.error);
  const platformMessage = str(error.message) ?? 'the token is not valid';
  const revoked = /not authorized application/i.test(platformMessage);
  const code = num(error.code);
  const subcode = num(error.subcode);
  throw new PlatformError(revoked ? 'access_revoked' : 'token_expired', `threads: ${platformMessage}`, {
    platform,
    ...(code !== null ? { code } : {}),
    ...(subcode !== null ? { subcode } : {}),
    platformMessage,
  });
}

/**
 * The scopes a new token carries: debug_token's, with the operator's tester token. Without one
 * (or when Threads refuses it), what a call shows: `/me` answers only with threads_basic, and the
 * other scopes are taken as requested; a call refused later for one of them reports it
 * (`missingScopes`), so the account's permissions can drop it then.
 */
export async function grantedScopes(
  context: GraphContext,
  accessToken: string,
  requested: readonly string[],
  testerToken: string | undefined,
): Promise<string[]> {
  const inspected = testerToken === undefined ? null : await debugToken(context, accessToken, testerToken);
  if (inspected !== null) return liveScopes(inspected, context.now());
  try {
    await context.graph.get('/me', accessToken, { fields: 'id' });
  } catch (error) {
    if (error instanceof PlatformError && error.kind === 'permission_missing') return [];
    throw error;
  }
  return [...requested];
}
