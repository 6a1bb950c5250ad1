/** Signing in with Threads: the login page, the code exchange for a long-lived token, its refresh. */
import { unsupported } from '../errors.ts';
import { requiredText } from '../http.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { exchangeCodeByForm, longLivedToken, refreshLongLived } from '../meta/sign-in.ts';
import { callbackOf, loginUrl } from '../sign-in.ts';
import type { PlatformAdapter } from '../types.ts';
import { grantedScopes } from './granted-scopes.ts';
import { THREADS_SCOPES } from './scopes.ts';

const platform = 'threads';

export function threadsSignIn(
  context: GraphContext,
): Pick<PlatformAdapter, 'authorizeUrl' | 'parseCallback' | 'exchangeCode' | 'refreshToken' | 'revokeAccess'> {
  const { graph, options } = context;
  return {
    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(`${options.hostUrl('threads.net')}/oauth/authorize`, {
        client_id: options.clientId,
        redirect_uri: redirectUri,
        scope: (scopes ?? THREADS_SCOPES.requested).join(','),
        response_type: 'code',
        state,
      });
    },

    parseCallback(query) {
      // Threads appends `#_` to the redirect.
      return callbackOf(query, /#_$/);
    },

    async exchangeCode(code, redirectUri) {
      const short = await exchangeCodeByForm(context, graph.url('/oauth/access_token', true), code, redirectUri);
      const userId = requiredText(platform, short.user_id, 'user_id');
      const { accessToken, expiresAt } = await longLivedToken(
        context,
        'th_exchange_token',
        requiredText(platform, short.access_token, 'access_token'),
      );
      const testerToken = options.settings?.testerToken;
      const scopes = await grantedScopes(context, accessToken, THREADS_SCOPES.requested, testerToken);
      return { accessToken, expiresAt, platformUserId: userId, scopes };
    },

    refreshToken(tokens) {
      return refreshLongLived(context, 'th_refresh_token', tokens);
    },

    async revokeAccess() {
      // The Threads API documents no endpoint that revokes the app's access (no
      // DELETE /me/permissions): users remove the app in Threads' settings, and Threads then
      // calls the app's uninstall callback.
      throw unsupported(platform, "revoking the app's access (the Threads API has no endpoint for it)");
    },
  };
}
