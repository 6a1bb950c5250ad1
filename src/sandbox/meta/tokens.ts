/**
 * Instagram's and Threads' tokens, which they issue, exchange and refresh alike: the code
 * exchange gives a short-lived token (1 hour), exchanged for a long-lived one, which can be
 * refreshed once it is a day old, each time for the platform's long lifetime.
 */
import type { FastifyInstance } from 'fastify';
import { DAY_MS } from '../../days.ts';
import { type CallOptions, caller } from '../caller.ts';
import { param, requiredParam } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxCode, SandboxToken } from '../schema.ts';
import { issueToken } from '../store/grants.ts';
import { graph } from './errors.ts';

const SHORT_LIVED_MS = 3_600_000;
const REFRESHABLE_AFTER_MS = DAY_MS;

/** The short-lived token a code exchange gives, for the user and scopes the code granted. */
export function shortLivedToken(store: Store, grant: SandboxCode, prefix: string): Promise<SandboxToken> {
  const { platform, accountId, clientId, scopes } = grant;
  return issueToken(store, { platform, accountId, kind: 'short', clientId, scopes, prefix }, SHORT_LIVED_MS);
}

/** What differs between the two: the grant types' names, the token's prefix and its lifetime. */
export interface LongLivedTokens {
  exchangeGrant: string;
  refreshGrant: string;
  prefix: string;
  seconds: number;
}

/** A long-lived token answer, for the user of `source` with its scopes. */
async function longLivedTokenAnswer(store: Store, source: SandboxToken, tokens: LongLivedTokens) {
  const token = await issueToken(
    store,
    {
      platform: source.platform,
      accountId: source.accountId,
      kind: 'long',
      clientId: source.clientId,
      scopes: source.scopes,
      prefix: tokens.prefix,
    },
    tokens.seconds * 1000,
  );
  return { access_token: token.token, token_type: 'bearer', expires_in: tokens.seconds };
}

/** `GET /access_token` (the exchange) and `GET /refresh_access_token`. */
export function longLivedTokenRoutes(app: FastifyInstance, store: Store, call: CallOptions, tokens: LongLivedTokens) {
  app.get('/access_token', async (request) => {
    if (param(request, 'grant_type') !== tokens.exchangeGrant) {
      throw graph.badParameter(`grant_type must be ${tokens.exchangeGrant}`);
    }
    requiredParam(request, graph, 'client_secret');
    const who = await caller(store, request, call);
    if (who.token.kind !== 'short') throw graph.badParameter('access_token must be a short-lived token');
    return longLivedTokenAnswer(store, who.token, tokens);
  });

  app.get('/refresh_access_token', async (request) => {
    if (param(request, 'grant_type') !== tokens.refreshGrant) {
      throw graph.badParameter(`grant_type must be ${tokens.refreshGrant}`);
    }
    const who = await caller(store, request, { ...call, refreshing: true });
    if (who.token.kind !== 'long') throw graph.badParameter('access_token must be a long-lived token');
    if (store.now().getTime() - who.token.issuedAt.getTime() < REFRESHABLE_AFTER_MS) {
      throw graph.badParameter('The access token can be refreshed only after it is 24 hours old');
    }
    return longLivedTokenAnswer(store, who.token, tokens);
  });
}
