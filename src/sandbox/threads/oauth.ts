/**
 * Threads' OAuth: the permission page (threads.net), the code exchange and the long-lived
 * tokens (graph.threads.net), and debug_token, which answers the app's testers.
 */
import type { FastifyInstance } from 'fastify';
import { metaLoginDialog, registerAuthorizeDialog } from '../authorize-page.ts';
import { caller } from '../caller.ts';
import { jsonInteger, param, requiredParam } from '../kit.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import { longLivedTokenRoutes, shortLivedToken } from '../meta/tokens.ts';
import type { Store } from '../platform.ts';
import type { SandboxToken } from '../schema.ts';
import { findToken, redeemCode } from '../store/grants.ts';
import { isTester } from '../store/testers.ts';
import { call, platform } from './access.ts';

const LONG_LIVED_SECONDS = 60 * 86_400;

/** threads.net: the permission page. */
export function permissionPage(app: FastifyInstance, store: Store): void {
  registerAuthorizeDialog(app, '/oauth/authorize', store, metaLoginDialog(platform, 'Threads'));
}

/** graph.threads.net: the code exchange, the long-lived tokens and debug_token. */
export function tokenRoutes(app: FastifyInstance, store: Store): void {
  app.post('/oauth/access_token', async (request) => {
    for (const name of ['client_id', 'client_secret', 'grant_type', 'redirect_uri', 'code']) {
      requiredParam(request, graph, name);
    }
    if (param(request, 'grant_type') !== 'authorization_code') {
      throw graph.badParameter('grant_type must be authorization_code');
    }
    const grant = await redeemCode(store, {
      platform,
      code: requiredParam(request, graph, 'code'),
      clientId: requiredParam(request, graph, 'client_id'),
      redirectUri: requiredParam(request, graph, 'redirect_uri'),
    });
    if (!grant) throw graphAnswer(400, 100, 'Matching code was not found or was already used', { subcode: 36009 });
    const token = await shortLivedToken(store, grant, 'THQV');
    // Threads sends user_id here as a JSON number (client libraries read it as a u64; some
    // say a string comes too, which the adapter reads as well), beyond 2^53 for today's ids.
    return { access_token: token.token, user_id: jsonInteger(grant.accountId) };
  });

  longLivedTokenRoutes(app, store, call, {
    exchangeGrant: 'th_exchange_token',
    refreshGrant: 'th_refresh_token',
    prefix: 'THAA',
    seconds: LONG_LIVED_SECONDS,
  });

  /*
   * Threads answers debug_token only to a user token of a Threads tester of the same app
   * as the inspected token ("Debug Access Token"); that token must itself be live. The
   * inspected one may be expired or revoked: saying so is what debug_token is for.
   */
  app.get('/:version/debug_token', async (request) => {
    const tester = await caller(store, request, call);
    const inputToken = requiredParam(request, graph, 'input_token');
    if (!(await isTester(store, platform, tester.token.clientId, tester.account.id))) {
      throw graphAnswer(400, 100, '(#100) The access_token must be a user access token of a Threads tester of the app');
    }
    const input = await findToken(store, inputToken);
    if (!input || input.token.platform !== platform) {
      return {
        data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] },
      };
    }
    if (input.token.clientId !== tester.token.clientId) {
      throw graphAnswer(400, 100, '(#100) The input_token and the access_token must belong to the same app');
    }
    const now = store.now();
    const live = (t: SandboxToken) => t.revokedAt === null && (t.expiresAt === null || t.expiresAt > now);
    const token = input.token;
    const error =
      token.revokedAt !== null
        ? { code: 190, message: 'Error validating access token: The user has not authorized application.' }
        : !live(token)
          ? { code: 190, subcode: 463, message: 'Error validating access token: Session has expired.' }
          : undefined;
    return {
      data: {
        app_id: token.clientId,
        type: 'USER',
        application: 'Switchboard sandbox',
        ...(error ? { error } : {}),
        is_valid: error === undefined,
        issued_at: Math.floor(token.issuedAt.getTime() / 1000),
        expires_at: token.expiresAt === null ? 0 : Math.floor(token.expiresAt.getTime() / 1000),
        scopes: token.scopes,
        user_id: token.accountId,
      },
    };
  });
}
