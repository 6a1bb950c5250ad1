/**
 * Instagram Login's OAuth: the permission page (www.instagram.com), the code exchange
 * (api.instagram.com) and the long-lived tokens (graph.instagram.com).
 */
import type { FastifyInstance } from 'fastify';
import { SandboxAnswer } from '../answers.ts';
import { metaLoginDialog, registerAuthorizeDialog } from '../authorize-page.ts';
import { jsonInteger } from '../kit.ts';
import { longLivedTokenRoutes, shortLivedToken } from '../meta/tokens.ts';
import type { Store } from '../platform.ts';
import { redeemCode } from '../store/grants.ts';
import { oneOf } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { call, platform } from './access.ts';
import { instagramAppScopedId } from './ids.ts';

const LONG_LIVED_SECONDS = 5_183_944;

/** The code exchange's answer: `data` (documented, `{"data":[{...}]}`) or `flat` (`{...}`). */
export const TOKEN_SHAPE = oneOf('instagram_token_shape', ['data', 'flat']);

/** The flat OAuth error Instagram's token endpoint answers with. */
function oauthError(message: string): SandboxAnswer {
  return new SandboxAnswer(400, { error_type: 'OAuthException', code: 400, error_message: message });
}

/**
 * www.instagram.com: the permission page. A browser signed in to Instagram is taken as that
 * user, unless the app sends `force_authentication=1` (Business Login for Instagram's
 * parameters take 0 or 1), which asks the user to log in again; `force_reauth` does nothing.
 */
export function permissionPage(app: FastifyInstance, store: Store): void {
  registerAuthorizeDialog(app, '/oauth/authorize', store, {
    ...metaLoginDialog(platform, 'Instagram'),
    session: { cookie: 'sandbox_instagram_session', force: { param: 'force_authentication', value: '1' } },
  });
}

/** api.instagram.com: the code exchange, for a short-lived token. */
export function codeExchangeRoutes(app: FastifyInstance, store: Store): void {
  app.post('/oauth/access_token', async (request) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    for (const name of ['client_id', 'client_secret', 'grant_type', 'redirect_uri', 'code']) {
      if (typeof form[name] !== 'string' || form[name] === '') throw oauthError(`Missing required field ${name}`);
    }
    if (form.grant_type !== 'authorization_code') throw oauthError('Invalid grant_type');
    const grant = await redeemCode(store, {
      platform,
      code: String(form.code),
      clientId: String(form.client_id),
      redirectUri: String(form.redirect_uri),
    });
    if (!grant) throw oauthError('Matching code was not found or was already used');
    const token = await shortLivedToken(store, grant, 'IGQV');
    // "their Instagram App-scoped User ID" (Business Login for Instagram, step 2): not the
    // professional account id of `/me`'s user_id, webhooks and paths. Some answers give it
    // as a JSON integer, beyond 2^53.
    const answer = {
      access_token: token.token,
      user_id: jsonInteger(instagramAppScopedId(grant.accountId)),
      permissions: grant.scopes.join(','),
    };
    return (await getSetting(store, TOKEN_SHAPE)) === 'flat' ? answer : { data: [answer] };
  });
}

/** graph.instagram.com: a long-lived token for a short-lived one, and its refresh. */
export function tokenRoutes(app: FastifyInstance, store: Store): void {
  longLivedTokenRoutes(app, store, call, {
    exchangeGrant: 'ig_exchange_token',
    refreshGrant: 'ig_refresh_token',
    prefix: 'IGAA',
    seconds: LONG_LIVED_SECONDS,
  });
}
