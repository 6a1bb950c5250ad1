/** Signing in with Instagram Login: the login page, the code exchange for a long-lived token, its refresh. */
import { unsupported } from '../errors.ts';
import { list, record, requiredText, str } from '../http.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { exchangeCodeByForm, longLivedToken, refreshLongLived } from '../meta/sign-in.ts';
import { callbackOf, loginUrl, splitScopes } from '../sign-in.ts';
import { type PlatformAdapter, PlatformError } from '../types.ts';
import { professionalAccountId } from './profile.ts';
import { INSTAGRAM_SCOPES, SCOPE } from './scopes.ts';

const platform = 'instagram';

export function instagramSignIn(
  context: GraphContext,
): Pick<PlatformAdapter, 'authorizeUrl' | 'parseCallback' | 'exchangeCode' | 'refreshToken' | 'revokeAccess'> {
  const { options } = context;
  return {
    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(`${options.hostUrl('www.instagram.com')}/oauth/authorize`, {
        client_id: options.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: (scopes ?? INSTAGRAM_SCOPES.requested).join(','),
        state,
        enable_fb_login: '0',
        // A fresh login every time, so a second account can be connected from a browser still
        // signed in to the first. Business Login for Instagram's parameters take 0 or 1;
        // force_reauth is on no Meta page (docs/platforms.md, Open questions).
        force_authentication: '1',
      });
    },

    parseCallback(query) {
      // Instagram appends `#_` to the redirect.
      return callbackOf(query, /#_$/);
    },

    async exchangeCode(code, redirectUri) {
      const url = `${options.hostUrl('api.instagram.com')}/oauth/access_token`;
      const body = await exchangeCodeByForm(context, url, code, redirectUri);
      // Documented as {"data":[{...}]}; some clients read it flat: accept both.
      const grant = record(list(body.data)[0] ?? body);
      const permissions = grant.permissions;
      // What the user left ticked; an empty list is an answer too (every permission unticked).
      if (permissions === undefined || permissions === null) {
        throw new PlatformError('transient', 'instagram answered the code exchange without permissions', { platform });
      }
      const scopes = Array.isArray(permissions)
        ? permissions.map(str).filter((s): s is string => s !== null)
        : splitScopes(permissions);
      const token = await longLivedToken(
        context,
        'ig_exchange_token',
        requiredText(platform, grant.access_token, 'access_token'),
      );
      // The exchange's user_id is app-scoped: the account is its professional account id, read
      // from `/me`, which instagram_business_basic opens; the app-scoped id is kept beside, as a
      // deauthorization may name it. Without that scope nothing can be connected (the connect
      // flow refuses a grant lacking a required scope), and the exchange's id is all there is.
      const appScopedId = requiredText(platform, grant.user_id, 'user_id');
      if (!scopes.includes(SCOPE.basic)) return { ...token, platformUserId: appScopedId, scopes };
      const platformUserId = await professionalAccountId(context, token.accessToken);
      return { ...token, platformUserId, aliases: [appScopedId], scopes };
    },

    refreshToken(tokens) {
      return refreshLongLived(context, 'ig_refresh_token', tokens);
    },

    async revokeAccess() {
      // Instagram API with Instagram Login documents no way to revoke the app's access:
      // graph.instagram.com has no permissions edge (DELETE /{user-id}/permissions is Facebook
      // Login's, on graph.facebook.com). The user removes the app in Instagram's settings.
      throw unsupported(
        platform,
        "revoking the app's access (Instagram API with Instagram Login has no endpoint for it)",
      );
    },
  };
}
