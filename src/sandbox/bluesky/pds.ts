/**
 * The PDS: its protected-resource metadata naming the entryway as its authorization server, and
 * the XRPC methods the service calls, each with a DPoP-bound access token (`Authorization: DPoP`,
 * a proof with `ath`, the token's key): app.bsky.actor.getProfile (answered here, as a PDS proxies
 * it to the AppView), com.atproto.repo.createRecord (a record key given is kept; one already in
 * the repository is refused) and com.atproto.repo.getRecord.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Caller, caller, requireScope } from '../caller.ts';
import type { Store } from '../platform.ts';
import { findAccount } from '../store/accounts.ts';
import { recordActivity } from '../store/activity.ts';
import { createPost, findPost } from '../store/posts.ts';
import { ISSUER, PDS_URL, platform, SCOPE, xrpcAnswer, xrpcDialect } from './access.ts';
import type { DpopServer } from './dpop.ts';
import { boundKey } from './oauth.ts';

const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const POST = 'app.bsky.feed.post';
/** "app.bsky.feed.post": at most 300 graphemes and 3000 bytes. */
const MAX_GRAPHEMES = 300;
const MAX_BYTES = 3000;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

function body(request: FastifyRequest): Record<string, unknown> {
  const value = request.body;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function pdsRoutes(app: FastifyInstance, store: Store, dpop: DpopServer): void {
  const errors = xrpcDialect(store.now);
  const options = { platform, errors };

  app.addHook('onSend', async (_request, reply) => {
    reply.header('dpop-nonce', dpop.nonce());
  });

  /** The caller of an XRPC method: a DPoP token, proved with the key it is bound to. */
  async function account(request: FastifyRequest, nsid: string, publishing = false): Promise<Caller> {
    const auth = request.headers.authorization ?? '';
    if (!auth.startsWith('DPoP ')) throw errors.invalidToken('DPoP token required');
    const token = auth.slice('DPoP '.length).trim();
    const refuse = (error: string, description: string, nonce: string) =>
      xrpcAnswer(401, error === 'use_dpop_nonce' ? 'UseDpopNonce' : 'InvalidToken', description, {
        'www-authenticate': `DPoP error="${error}", error_description="${description}"`,
        'dpop-nonce': nonce,
      });
    const jkt = await dpop.check(request, `${PDS_URL}/xrpc/${nsid}`, refuse, token);
    const who = await caller(store, request, { ...options, ...(publishing ? { publishing: true } : {}) }, token);
    if (boundKey(who.token.clientId) !== jkt) throw errors.invalidToken('DPoP key mismatch');
    requireScope(who, options, SCOPE.atproto);
    return who;
  }

  app.get('/.well-known/oauth-protected-resource', async () => ({
    resource: PDS_URL,
    authorization_servers: [ISSUER],
    scopes_supported: [],
    bearer_methods_supported: ['header'],
  }));

  app.get('/xrpc/app.bsky.actor.getProfile', async (request) => {
    await account(request, 'app.bsky.actor.getProfile');
    const actor = String((request.query as Record<string, unknown>).actor ?? '');
    const user = await findAccount(store, actor);
    if (user === undefined || user.platform !== platform) throw xrpcAnswer(400, 'InvalidRequest', 'Profile not found');
    return {
      did: user.id,
      handle: user.username,
      displayName: user.name,
      avatar: `https://cdn.bsky.app/img/avatar/plain/${user.id}/sandbox@jpeg`,
      followersCount: user.followersCount,
      followsCount: 0,
      postsCount: 0,
    };
  });

  app.post('/xrpc/com.atproto.repo.createRecord', async (request) => {
    const who = await account(request, 'com.atproto.repo.createRecord', true);
    requireScope(who, options, SCOPE.generic);
    const input = body(request);
    if (input.repo !== who.account.id)
      throw xrpcAnswer(400, 'InvalidRequest', 'Input/repo must be the DID of the session');
    if (input.collection !== POST) throw xrpcAnswer(400, 'InvalidRequest', `The sandbox writes ${POST} records only`);
    const record = body({ body: input.record } as FastifyRequest);
    const text = typeof record.text === 'string' ? record.text : null;
    if (record.$type !== POST || text === null || typeof record.createdAt !== 'string') {
      throw xrpcAnswer(400, 'InvalidRequest', 'Invalid app.bsky.feed.post record: text and createdAt are required');
    }
    if ([...graphemes.segment(text)].length > MAX_GRAPHEMES || Buffer.byteLength(text) > MAX_BYTES) {
      throw xrpcAnswer(
        400,
        'InvalidRequest',
        'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes',
      );
    }
    const rkey = typeof input.rkey === 'string' ? input.rkey : null;
    if (rkey === null || !TID.test(rkey)) throw xrpcAnswer(400, 'InvalidRequest', 'Input/rkey must be a valid TID');
    const uri = `at://${who.account.id}/${POST}/${rkey}`;
    if ((await findPost(store, uri)) !== undefined) {
      throw xrpcAnswer(400, 'InvalidRequest', `Record already exists: ${uri}`);
    }
    const post = await createPost(store, who.account, {
      id: uri,
      caption: text,
      mediaType: 'TEXT',
      mediaUrl: null,
      viaApi: true,
    });
    await recordActivity(store, {
      accountId: who.account.id,
      action: 'publish',
      targetId: post.id,
      detail: { record },
    });
    return { uri, cid: `bafyrei${rkey}sandbox` };
  });

  app.get('/xrpc/com.atproto.repo.getRecord', async (request) => {
    await account(request, 'com.atproto.repo.getRecord');
    const query = request.query as Record<string, unknown>;
    const uri = `at://${String(query.repo)}/${String(query.collection)}/${String(query.rkey)}`;
    const post = await findPost(store, uri);
    if (post === undefined) throw xrpcAnswer(400, 'RecordNotFound', `Could not locate record: ${uri}`);
    return {
      uri,
      cid: `bafyrei${String(query.rkey)}sandbox`,
      value: { $type: POST, text: post.caption, createdAt: post.createdAt.toISOString() },
    };
  });
}
