/**
 * The PDS: its protected-resource metadata naming the entryway as its authorization server, and
 * the XRPC methods the service calls, each with a DPoP-bound access token (`Authorization: DPoP`,
 * a proof with `ath`, the token's key): app.bsky.actor.getProfile (answered here, as a PDS proxies
 * it to the AppView), com.atproto.repo.uploadBlob, com.atproto.repo.createRecord (a record key
 * given is kept, one already in the repository refused; images name uploaded blobs, a reply names
 * its root and parent by uri and cid) and com.atproto.repo.getRecord.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Caller, caller, requireScope } from '../caller.ts';
import type { Store } from '../platform.ts';
import { findAccount } from '../store/accounts.ts';
import { recordActivity } from '../store/activity.ts';
import { findInsight, insightFigures, LIFETIME_DAY } from '../store/insights.ts';
import { createPost, findPost } from '../store/posts.ts';
import { ISSUER, PDS_URL, platform, SCOPE, xrpcAnswer, xrpcDialect } from './access.ts';
import type { DpopServer } from './dpop.ts';
import { boundKey } from './oauth.ts';

/** A post view's counts, as app.bsky.feed.defs#postView names them; `PUT /_control/insights` takes these names. */
export const POST_COUNTS = ['likeCount', 'repostCount', 'replyCount', 'quoteCount'];

const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const POST = 'app.bsky.feed.post';
/** "app.bsky.feed.post": at most 300 graphemes and 3000 bytes. */
const MAX_GRAPHEMES = 300;
const MAX_BYTES = 3000;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** "app.bsky.embed.images": each image blob at most 1,000,000 bytes. */
const MAX_IMAGE_BYTES = 1_000_000;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A content id's look (`bafyrei…`, `bafkrei…`): base32 of a SHA-256 of what it names. */
function cidOf(prefix: string, content: Buffer | string): string {
  const hash = createHash('sha256').update(content).digest();
  let out = '';
  for (let i = 0; i < 52; i++) out += BASE32[((hash[Math.floor((i * 5) / 8)] ?? 0) >> (i % 3)) & 31];
  return `${prefix}${out}`;
}

/** A post's record id, the same at every read. */
function postCid(post: { id: string; caption: string }): string {
  return cidOf('bafyrei', `${post.id}\n${post.caption}`);
}

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
      // Today's count as `PUT /_control/insights` set it, else the user's own.
      followersCount:
        (
          await findInsight(store, {
            accountId: user.id,
            postId: '',
            metric: 'followersCount',
            day: store.now().toISOString().slice(0, 10),
          })
        )?.value ?? user.followersCount,
      followsCount: 0,
      postsCount: 0,
    };
  });

  /** The blobs uploaded (in this process: a PDS drops a blob no record names within hours). */
  const blobs = new Map<string, { mimeType: string; size: number }>();

  app.addContentTypeParser(
    /^(image|video)\//,
    { parseAs: 'buffer', bodyLimit: 100 * 1024 * 1024 },
    (_request, payload, done) => done(null, payload),
  );

  app.post('/xrpc/com.atproto.repo.uploadBlob', async (request) => {
    const who = await account(request, 'com.atproto.repo.uploadBlob');
    requireScope(who, options, SCOPE.generic);
    const bytes = request.body;
    if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw xrpcAnswer(400, 'InvalidRequest', 'Request body is empty');
    const mimeType = (request.headers['content-type'] ?? '').split(';')[0] ?? '';
    const cid = cidOf('bafkrei', bytes);
    blobs.set(cid, { mimeType, size: bytes.length });
    return { blob: { $type: 'blob', ref: { $link: cid }, mimeType, size: bytes.length } };
  });

  /** Why the post's embed is refused, or null: images name blobs uploaded here, 4 at most, 1,000,000 bytes each, each with alt. */
  function embedProblem(embed: unknown): string | null {
    if (embed === undefined) return null;
    const value = body({ body: embed } as FastifyRequest);
    if (value.$type === 'app.bsky.embed.external') {
      const external = body({ body: value.external } as FastifyRequest);
      return typeof external.uri === 'string' &&
        typeof external.title === 'string' &&
        typeof external.description === 'string'
        ? null
        : 'Record/embed/external must have uri, title and description';
    }
    if (value.$type !== 'app.bsky.embed.images') return 'The sandbox takes images and external embeds only';
    const images = Array.isArray(value.images) ? value.images : [];
    if (images.length === 0 || images.length > 4) return 'Record/embed/images must have 1 to 4 images';
    for (const item of images) {
      const image = body({ body: item } as FastifyRequest);
      const blob = body({ body: image.image } as FastifyRequest);
      const ref = body({ body: blob.ref } as FastifyRequest);
      const known = blobs.get(String(ref.$link));
      if (known === undefined) return `Could not find blob: ${String(ref.$link)}`;
      if (known.size > MAX_IMAGE_BYTES)
        return `Record/embed/images/image is too big: ${known.size} bytes, 1000000 at most`;
      if (!known.mimeType.startsWith('image/')) return 'Record/embed/images/image must be an image';
      if (typeof image.alt !== 'string') return 'Record/embed/images/alt is required';
    }
    return null;
  }

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
    const embedRefusal = embedProblem(record.embed);
    if (embedRefusal !== null) throw xrpcAnswer(400, 'InvalidRequest', embedRefusal);
    let replyToId: string | null = null;
    if (record.reply !== undefined) {
      const reply = body({ body: record.reply } as FastifyRequest);
      for (const name of ['root', 'parent'] as const) {
        const ref = body({ body: reply[name] } as FastifyRequest);
        const target = typeof ref.uri === 'string' ? await findPost(store, ref.uri) : undefined;
        if (target === undefined || ref.cid !== postCid(target)) {
          throw xrpcAnswer(400, 'InvalidRequest', `Record/reply/${name} must name an existing post by uri and cid`);
        }
        if (name === 'parent') replyToId = target.id;
      }
    }
    const rkey = typeof input.rkey === 'string' ? input.rkey : null;
    if (rkey === null || !TID.test(rkey)) throw xrpcAnswer(400, 'InvalidRequest', 'Input/rkey must be a valid TID');
    const uri = `at://${who.account.id}/${POST}/${rkey}`;
    if ((await findPost(store, uri)) !== undefined) {
      throw xrpcAnswer(400, 'InvalidRequest', `Record already exists: ${uri}`);
    }
    const images =
      record.embed === undefined
        ? 0
        : ((body({ body: record.embed } as FastifyRequest).images as unknown[] | undefined)?.length ?? 0);
    const post = await createPost(store, who.account, {
      id: uri,
      caption: text,
      mediaType: images > 1 ? 'CAROUSEL_ALBUM' : images === 1 ? 'IMAGE' : 'TEXT',
      mediaUrl: null,
      viaApi: true,
      replyToId,
    });
    await recordActivity(store, {
      accountId: who.account.id,
      action: 'publish',
      targetId: post.id,
      detail: { record },
    });
    return { uri, cid: postCid(post) };
  });

  // app.bsky.feed.getPosts: the post views of up to 25 at:// URIs; a post it does not have is left out.
  app.get('/xrpc/app.bsky.feed.getPosts', async (request) => {
    await account(request, 'app.bsky.feed.getPosts');
    const asked = (request.query as Record<string, unknown>).uris;
    const uris = (Array.isArray(asked) ? asked : [asked]).filter((u): u is string => typeof u === 'string');
    if (uris.length === 0 || uris.length > 25) throw xrpcAnswer(400, 'InvalidRequest', 'uris must have 1 to 25 items');
    const posts = [];
    for (const uri of uris) {
      const post = await findPost(store, uri);
      const author = post === undefined ? undefined : await findAccount(store, post.accountId);
      if (post === undefined || author === undefined) continue;
      const figures = await insightFigures(store, {
        accountId: post.accountId,
        postId: post.id,
        metrics: POST_COUNTS,
        days: [LIFETIME_DAY],
      });
      const counts: Record<string, number> = {};
      for (const name of POST_COUNTS) counts[name] = figures.get(name)?.get(LIFETIME_DAY) ?? 0;
      posts.push({
        uri: post.id,
        cid: postCid(post),
        author: { did: author.id, handle: author.username, displayName: author.name },
        record: { $type: POST, text: post.caption, createdAt: post.createdAt.toISOString() },
        ...counts,
        indexedAt: post.createdAt.toISOString(),
      });
    }
    return { posts };
  });

  app.get('/xrpc/com.atproto.repo.getRecord', async (request) => {
    await account(request, 'com.atproto.repo.getRecord');
    const query = request.query as Record<string, unknown>;
    const uri = `at://${String(query.repo)}/${String(query.collection)}/${String(query.rkey)}`;
    const post = await findPost(store, uri);
    if (post === undefined) throw xrpcAnswer(400, 'RecordNotFound', `Could not locate record: ${uri}`);
    return {
      uri,
      cid: postCid(post),
      value: { $type: POST, text: post.caption, createdAt: post.createdAt.toISOString() },
    };
  });
}
