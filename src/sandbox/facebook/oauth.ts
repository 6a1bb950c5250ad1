/**
 * Facebook Login: the permission page, where the user also picks pages (www.facebook.com),
 * and graph.facebook.com's tokens: the code exchange, the long-lived exchange (a user's or
 * a page's token), page tokens, the permissions granted, and revoking them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerAuthorizeDialog, withParams } from '../authorize-page.ts';
import { type Caller, caller } from '../caller.ts';
import { param, requiredParam } from '../kit.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { recordActivity } from '../store/activity.ts';
import { endTokens, findCode, issueToken, redeemCode } from '../store/grants.ts';
import { call, platform, SCOPE, targetId } from './access.ts';

const CODE_TTL_MS = 10 * 60_000;
const SHORT_LIVED_SECONDS = 2 * 3_600;
const LONG_LIVED_SECONDS = 60 * 86_400;
const TOKEN_PREFIX = 'EAAG';

/**
 * The dialog does not keep what the app asked for, only what was ticked: /me/permissions
 * reports these Pages permissions as `declined` when they were not granted.
 */
const PAGE_PERMISSIONS = Object.values(SCOPE);
/** Every Facebook login grants the public profile. */
const PUBLIC_PROFILE = 'public_profile';

/**
 * The code exchange's refusal, told the way Graph tells it: used (36009), expired (36007),
 * another redirect_uri (36008), or unknown.
 */
async function codeRefusal(store: Store, code: string, redirectUri: string) {
  const row = await findCode(store, code);
  if (!row || row.platform !== platform) {
    return graphAnswer(400, 100, 'Invalid verification code format.');
  }
  if (row.usedAt !== null) return graphAnswer(400, 100, 'This authorization code has been used.', { subcode: 36009 });
  if (row.expiresAt <= store.now()) {
    return graphAnswer(400, 100, 'This authorization code has expired.', { subcode: 36007 });
  }
  if (row.redirectUri !== redirectUri) {
    return graphAnswer(
      400,
      100,
      'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      { subcode: 36008 },
    );
  }
  return graphAnswer(400, 1, 'Error validating client.', { subcode: 36010 });
}

/** A token answer: with `expires_in`, unless the token never expires (a page token from a long-lived user token). */
function tokenAnswer(token: { token: string; expiresAt: Date | null }, store: Store) {
  if (token.expiresAt === null) return { access_token: token.token, token_type: 'bearer' };
  const seconds = Math.round((token.expiresAt.getTime() - store.now().getTime()) / 1000);
  return { access_token: token.token, token_type: 'bearer', expires_in: seconds };
}

async function issueUserToken(
  store: Store,
  who: { accountId: string; clientId: string; scopes: string[]; pageIds: string[] },
  kind: 'short' | 'long',
) {
  return issueToken(
    store,
    { platform, ...who, kind, prefix: TOKEN_PREFIX },
    (kind === 'short' ? SHORT_LIVED_SECONDS : LONG_LIVED_SECONDS) * 1000,
  );
}

/** A page token: from a long-lived user token it does not expire; from a short one it ends with it. */
export async function issuePageToken(store: Store, user: Caller, page: SandboxAccount) {
  const ttl =
    user.token.kind === 'page' || user.token.expiresAt === null || user.token.kind === 'long'
      ? null
      : Math.max(0, user.token.expiresAt.getTime() - store.now().getTime());
  return issueToken(
    store,
    {
      platform,
      accountId: page.id,
      kind: 'page',
      clientId: user.token.clientId,
      scopes: user.token.scopes,
      pageIds: [page.id],
      prefix: TOKEN_PREFIX,
    },
    ttl,
  );
}

async function codeExchange(store: Store, request: FastifyRequest) {
  const clientId = requiredParam(request, graph, 'client_id');
  const redirectUri = requiredParam(request, graph, 'redirect_uri');
  requiredParam(request, graph, 'client_secret');
  const code = requiredParam(request, graph, 'code');
  const grant = await redeemCode(store, { platform, code, clientId, redirectUri });
  if (!grant) throw await codeRefusal(store, code, redirectUri);
  const token = await issueUserToken(
    store,
    { accountId: grant.accountId, clientId: grant.clientId, scopes: grant.scopes, pageIds: grant.pageIds },
    'short',
  );
  return tokenAnswer(token, store);
}

async function tokenExchange(store: Store, request: FastifyRequest) {
  const clientId = requiredParam(request, graph, 'client_id');
  requiredParam(request, graph, 'client_secret');
  const who = await caller(store, request, call, requiredParam(request, graph, 'fb_exchange_token'));
  if (who.token.clientId !== clientId) {
    throw graphAnswer(400, 100, 'Error validating application. The token was issued to another app.');
  }
  if (who.token.kind === 'page') return tokenAnswer(await issuePageToken(store, who, who.account), store);
  const long = await issueUserToken(
    store,
    { accountId: who.account.id, clientId, scopes: who.token.scopes, pageIds: who.token.pageIds },
    'long',
  );
  return tokenAnswer(long, store);
}

async function accessToken(store: Store, request: FastifyRequest) {
  const grantType = param(request, 'grant_type');
  if (grantType === 'fb_exchange_token') return tokenExchange(store, request);
  if (grantType !== undefined && grantType !== 'authorization_code') {
    throw graph.badParameter('grant_type must be fb_exchange_token when given');
  }
  return codeExchange(store, request);
}
/** www.facebook.com: the permission page, under a Graph version (`/v27.0/dialog/oauth`). */
export function permissionPage(app: FastifyInstance, store: Store): void {
  app.addHook('preHandler', async (request, reply) => {
    const version = (request.params as { version?: string }).version;
    if (version !== undefined && !/^v\d+\.\d+$/.test(version)) {
      return reply.code(404).type('text/html; charset=utf-8').send('<h1>This page isn&#39;t available</h1>');
    }
  });
  registerAuthorizeDialog(app, '/:version/dialog/oauth', store, {
    platform,
    label: 'Facebook (sandbox): allow access',
    clientParam: 'client_id',
    codeTtlMs: CODE_TTL_MS,
    withPages: true,
    success: (uri, { code, state }) => withParams(uri, { code, state }, '_=_'),
    cancel: (uri, state) =>
      withParams(uri, {
        error: 'access_denied',
        error_code: '200',
        error_description: 'Permissions error',
        error_reason: 'user_denied',
        state,
      }),
  });
}

/** graph.facebook.com: the token exchanges, the permissions granted and revoking them. */
export function tokenRoutes(app: FastifyInstance, store: Store): void {
  app.get('/oauth/access_token', (request) => accessToken(store, request));
  app.get('/:version/oauth/access_token', (request) => accessToken(store, request));

  app.get('/:version/me/permissions', async (request) => {
    const who = await caller(store, request, call);
    const granted = [...new Set([PUBLIC_PROFILE, ...who.token.scopes])];
    const declined = PAGE_PERMISSIONS.filter((p) => !granted.includes(p));
    return {
      data: [
        ...granted.map((permission) => ({ permission, status: 'granted' })),
        ...declined.map((permission) => ({ permission, status: 'declined' })),
      ],
    };
  });

  /*
   * Revoking a login, as Graph offers it (DELETE /{user-id}/permissions, with the user's
   * token): every token of that login ends, its pages' tokens too. A page token cannot.
   */
  app.delete('/:version/:id/permissions', async (request) => {
    const who = await caller(store, request, call);
    if (who.account.kind !== 'user') {
      throw graphAnswer(400, 100, '(#100) A user access token is required to revoke permissions');
    }
    if (targetId(request, who) !== who.account.id) throw graph.notFound(targetId(request, who));
    const tokens = await endTokens(store, who.account, 'revoke');
    await recordActivity(store, {
      accountId: who.account.id,
      action: 'revoke',
      targetId: who.account.id,
      detail: { client_id: who.token.clientId, tokens },
    });
    return { success: true };
  });
}
