/**
 * The PDS: its protected-resource metadata naming the entryway as its authorization server, and
 * the XRPC methods the service calls, each with a DPoP-bound access token (`Authorization: DPoP`,
 * a proof with `ath`, the token's key): app.bsky.actor.getProfile (answered here, as a PDS proxies
 * it to the AppView), com.atproto.repo.uploadBlob, com.atproto.repo.createRecord (a record key
 * given is kept, one already in the repository refused; images name uploaded blobs, a reply names
 * its root and parent by uri and cid, a video names the blob the video service stored),
 * com.atproto.repo.getRecord, and com.atproto.server.getServiceAuth (the tokens the video service takes).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Caller, caller, requireScope } from '../caller.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount, SandboxComment, SandboxPost } from '../schema.ts';
import { findAccount } from '../store/accounts.ts';
import { recordActivity } from '../store/activity.ts';
import { addComment, deleteComment, findComment, listComments, setCommentHidden } from '../store/comments.ts';
import { findInsight, insightFigures, LIFETIME_DAY } from '../store/insights.ts';
import { createPost, findPost, listPosts } from '../store/posts.ts';
import { cidOf, ISSUER, PDS_URL, platform, SCOPE, xrpcAnswer, xrpcDialect } from './access.ts';
import type { DpopServer } from './dpop.ts';
import { boundKey } from './oauth.ts';
import { MAX_VIDEO_BYTES, type ServiceTokens, type StoredBlob, serviceAuth } from './video.ts';

/** A post view's counts, as app.bsky.feed.defs#postView names them; `PUT /_control/insights` takes these names. */
export const POST_COUNTS = ['likeCount', 'repostCount', 'replyCount', 'quoteCount'];

const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const POST = 'app.bsky.feed.post';
const THREADGATE = 'app.bsky.feed.threadgate';
/** "app.bsky.feed.post": at most 300 graphemes and 3000 bytes. */
const MAX_GRAPHEMES = 300;
const MAX_BYTES = 3000;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** "app.bsky.embed.images": each image blob at most 2,000,000 bytes ("May be up to 2 MB, formerly limited to 1 MB"). */
const MAX_IMAGE_BYTES = 2_000_000;
/** A reply's record id, the same at every read. */
function commentCid(comment: { id: string; text: string }): string {
  return cidOf('bafyrei', `${comment.id}\n${comment.text}`);
}

/** A post's record id, the same at every read. */
function postCid(post: { id: string; caption: string }): string {
  return cidOf('bafyrei', `${post.id}\n${post.caption}`);
}

function body(request: FastifyRequest): Record<string, unknown> {
  const value = request.body;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * What the PDS shares with the video service: the blobs it holds (in this process: a PDS drops a
 * blob no record names within hours), and the service tokens it signs.
 */
export interface PdsShared {
  blobs: Map<string, StoredBlob>;
  tokens: ServiceTokens;
}

export function pdsRoutes(app: FastifyInstance, store: Store, dpop: DpopServer, { blobs, tokens }: PdsShared): void {
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

  /** Each post's threadgate as its author put it, but its hidden replies, kept on the replies (in this process). */
  const gates = new Map<string, Record<string, unknown>>();
  app.get('/xrpc/com.atproto.server.getServiceAuth', async (request) => {
    const who = await account(request, 'com.atproto.server.getServiceAuth');
    requireScope(who, options, SCOPE.generic);
    return await serviceAuth(tokens, who.account.id, request.query as Record<string, unknown>, store.now());
  });

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

  /** Why the post's embed is refused, or null: images name blobs uploaded here, 4 at most, 2,000,000 bytes each, each with alt. */
  function embedProblem(embed: unknown): string | null {
    if (embed === undefined) return null;
    const value = body({ body: embed } as FastifyRequest);
    if (value.$type === 'app.bsky.embed.external') {
      const external = body({ body: value.external } as FastifyRequest);
      if (
        typeof external.uri !== 'string' ||
        typeof external.title !== 'string' ||
        typeof external.description !== 'string'
      ) {
        return 'Record/embed/external must have uri, title and description';
      }
      if (external.thumb === undefined) return null;
      const thumb = blobs.get(
        String(body({ body: body({ body: external.thumb } as FastifyRequest).ref } as FastifyRequest).$link),
      );
      if (thumb === undefined || !thumb.mimeType.startsWith('image/'))
        return 'Record/embed/external/thumb must be an image blob';
      return thumb.size > MAX_IMAGE_BYTES ? `Record/embed/external/thumb is too big: ${thumb.size} bytes` : null;
    }
    if (value.$type === 'app.bsky.embed.video') {
      const blob = body({ body: value.video } as FastifyRequest);
      const ref = body({ body: blob.ref } as FastifyRequest);
      const known = blobs.get(String(ref.$link));
      if (known === undefined) return `Could not find blob: ${String(ref.$link)}`;
      if (known.mimeType !== 'video/mp4') return 'Record/embed/video/video must be video/mp4';
      if (known.size > MAX_VIDEO_BYTES) return `Record/embed/video/video is too big: ${known.size} bytes`;
      if (value.alt !== undefined && (typeof value.alt !== 'string' || [...graphemes.segment(value.alt)].length > 1000))
        return 'Record/embed/video/alt must be a string of at most 1000 graphemes';
      return aspectRatioProblem(value.aspectRatio, 'video');
    }
    if (value.$type !== 'app.bsky.embed.images') return 'The sandbox takes images, a video and external embeds only';
    const images = Array.isArray(value.images) ? value.images : [];
    if (images.length === 0 || images.length > 4) return 'Record/embed/images must have 1 to 4 images';
    for (const item of images) {
      const image = body({ body: item } as FastifyRequest);
      const blob = body({ body: image.image } as FastifyRequest);
      const ref = body({ body: blob.ref } as FastifyRequest);
      const known = blobs.get(String(ref.$link));
      if (known === undefined) return `Could not find blob: ${String(ref.$link)}`;
      if (known.size > MAX_IMAGE_BYTES)
        return `Record/embed/images/image is too big: ${known.size} bytes, ${MAX_IMAGE_BYTES} at most`;
      if (!known.mimeType.startsWith('image/')) return 'Record/embed/images/image must be an image';
      if (typeof image.alt !== 'string') return 'Record/embed/images/alt is required';
      const ratio = aspectRatioProblem(image.aspectRatio, 'images/image');
      if (ratio !== null) return ratio;
    }
    return null;
  }

  /** "app.bsky.embed.defs#aspectRatio": width and height, both positive whole numbers, when given. */
  function aspectRatioProblem(value: unknown, where: string): string | null {
    if (value === undefined) return null;
    const ratio = body({ body: value } as FastifyRequest);
    const positive = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1;
    return positive(ratio.width) && positive(ratio.height)
      ? null
      : `Record/embed/${where}/aspectRatio must have whole width and height of at least 1`;
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
    let answering: SandboxComment | undefined;
    if (record.reply !== undefined) {
      const reply = body({ body: record.reply } as FastifyRequest);
      const rootRef = body({ body: reply.root } as FastifyRequest);
      const parentRef = body({ body: reply.parent } as FastifyRequest);
      const root = typeof rootRef.uri === 'string' ? await findPost(store, rootRef.uri) : undefined;
      if (root === undefined || rootRef.cid !== postCid(root)) {
        throw xrpcAnswer(400, 'InvalidRequest', 'Record/reply/root must name an existing post by uri and cid');
      }
      const uri = typeof parentRef.uri === 'string' ? parentRef.uri : '';
      const parentPost = await findPost(store, uri);
      answering = parentPost === undefined ? await findComment(store, uri) : undefined;
      const parentCid = parentPost !== undefined ? postCid(parentPost) : answering && commentCid(answering);
      if (
        parentCid === undefined ||
        parentRef.cid !== parentCid ||
        (answering !== undefined && answering.postId !== root.id)
      ) {
        throw xrpcAnswer(
          400,
          'InvalidRequest',
          'Record/reply/parent must name an existing post of the thread by uri and cid',
        );
      }
      if (parentPost !== undefined) replyToId = parentPost.id;
    }
    const rkey = typeof input.rkey === 'string' ? input.rkey : null;
    if (rkey === null || !TID.test(rkey)) throw xrpcAnswer(400, 'InvalidRequest', 'Input/rkey must be a valid TID');
    const uri = `at://${who.account.id}/${POST}/${rkey}`;
    if ((await findPost(store, uri)) !== undefined || (await findComment(store, uri)) !== undefined) {
      throw xrpcAnswer(400, 'InvalidRequest', `Record already exists: ${uri}`);
    }
    if (answering !== undefined) {
      // An answer to a reply by someone else: a reply in that thread, kept with its comments.
      const made = await addComment(store, {
        id: uri,
        postId: answering.postId,
        parentId: answering.id,
        authorId: who.account.id,
        authorUsername: who.account.username,
        text,
      });
      await recordActivity(store, {
        accountId: who.account.id,
        action: 'reply',
        targetId: answering.id,
        detail: { record },
      });
      return { uri, cid: commentCid(made) };
    }
    const embed = record.embed === undefined ? {} : body({ body: record.embed } as FastifyRequest);
    const images = (embed.images as unknown[] | undefined)?.length ?? 0;
    const post = await createPost(store, who.account, {
      id: uri,
      caption: text,
      mediaType:
        embed.$type === 'app.bsky.embed.video'
          ? 'VIDEO'
          : images > 1
            ? 'CAROUSEL_ALBUM'
            : images === 1
              ? 'IMAGE'
              : 'TEXT',
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
      if (post === undefined || author === undefined) {
        // A reply in one of the sandbox's threads.
        const comment = await findComment(store, uri);
        const root = comment === undefined ? undefined : await findPost(store, comment.postId);
        if (comment !== undefined && root !== undefined) posts.push(await replyView(comment, root));
        continue;
      }
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

  function postViewOf(post: SandboxPost, author: SandboxAccount) {
    return {
      uri: post.id,
      cid: postCid(post),
      author: { did: author.id, handle: author.username, displayName: author.name },
      record: { $type: POST, text: post.caption, createdAt: post.createdAt.toISOString() },
      indexedAt: post.createdAt.toISOString(),
    };
  }

  /** A reply's author: a user of the sandbox, or someone else known by the comment alone. */
  async function replyView(comment: SandboxComment, root: SandboxPost) {
    const parent = comment.parentId === null ? { uri: root.id, cid: postCid(root) } : null;
    const parentComment = comment.parentId === null ? undefined : await findComment(store, comment.parentId);
    return {
      uri: comment.id,
      cid: commentCid(comment),
      author: { did: comment.authorId, handle: comment.authorUsername },
      record: {
        $type: POST,
        text: comment.text,
        createdAt: comment.createdAt.toISOString(),
        reply: {
          root: { uri: root.id, cid: postCid(root) },
          parent: parent ?? {
            uri: parentComment?.id ?? root.id,
            cid: parentComment ? commentCid(parentComment) : postCid(root),
          },
        },
      },
      indexedAt: comment.createdAt.toISOString(),
    };
  }

  /** The threadgate of a post, as its author wrote it (hidden replies are kept on the replies themselves). */
  async function threadgateOf(post: SandboxPost) {
    const { comments } = await listComments(store, post.id, { limit: 10_000 });
    const hiddenReplies = comments.filter((c) => c.hidden).map((c) => c.id);
    const gate =
      gates.get(post.id) ?? (hiddenReplies.length > 0 ? { createdAt: post.createdAt.toISOString() } : undefined);
    if (gate === undefined) return undefined;
    const rkey = post.id.slice(post.id.lastIndexOf('/') + 1);
    const record = { ...gate, $type: THREADGATE, post: post.id, hiddenReplies };
    return {
      uri: `at://${post.accountId}/${THREADGATE}/${rkey}`,
      cid: cidOf('bafyrei', JSON.stringify(record)),
      record,
    };
  }

  // app.bsky.feed.getAuthorFeed: the actor's posts, newest first (`posts_no_replies` leaves out its replies).
  app.get('/xrpc/app.bsky.feed.getAuthorFeed', async (request) => {
    await account(request, 'app.bsky.feed.getAuthorFeed');
    const query = request.query as Record<string, unknown>;
    const actor = await findAccount(store, String(query.actor ?? ''));
    if (actor === undefined || actor.platform !== platform)
      throw xrpcAnswer(400, 'InvalidRequest', 'Profile not found');
    const limit = Math.min(Math.max(Number(query.limit ?? 50) || 50, 1), 100);
    const { posts } = await listPosts(store, actor.id, { limit, replies: query.filter !== 'posts_no_replies' });
    return { feed: posts.map((post) => ({ post: postViewOf(post, actor) })) };
  });

  // app.bsky.feed.getPostThread: the post and its replies to `depth`, with its threadgate.
  app.get('/xrpc/app.bsky.feed.getPostThread', async (request) => {
    await account(request, 'app.bsky.feed.getPostThread');
    const query = request.query as Record<string, unknown>;
    const post = await findPost(store, String(query.uri ?? ''));
    const author = post === undefined ? undefined : await findAccount(store, post.accountId);
    if (post === undefined || author === undefined)
      throw xrpcAnswer(400, 'NotFound', `Post not found: ${String(query.uri)}`);
    const depth = Math.min(Math.max(Number(query.depth ?? 6) || 6, 0), 1000);
    const { comments } = await listComments(store, post.id, { limit: 10_000 });
    const oldestFirst = [...comments].reverse();
    const repliesTo = async (parentId: string | null, level: number): Promise<unknown[]> => {
      if (level >= depth) return [];
      const children = oldestFirst.filter((c) => c.parentId === parentId);
      return await Promise.all(
        children.map(async (c) => ({
          $type: 'app.bsky.feed.defs#threadViewPost',
          post: await replyView(c, post),
          replies: await repliesTo(c.id, level + 1),
        })),
      );
    };
    const gate = await threadgateOf(post);
    return {
      thread: {
        $type: 'app.bsky.feed.defs#threadViewPost',
        post: postViewOf(post, author),
        replies: await repliesTo(null, 0),
      },
      ...(gate === undefined ? {} : { threadgate: gate }),
    };
  });

  app.post('/xrpc/com.atproto.repo.deleteRecord', async (request) => {
    const who = await account(request, 'com.atproto.repo.deleteRecord', true);
    requireScope(who, options, SCOPE.generic);
    const input = body(request);
    if (input.repo !== who.account.id)
      throw xrpcAnswer(400, 'InvalidRequest', 'Input/repo must be the DID of the session');
    const uri = `at://${who.account.id}/${String(input.collection)}/${String(input.rkey)}`;
    const comment = await findComment(store, uri);
    // Deleting a record the repository does not hold changes nothing, and is no error.
    if (comment !== undefined) {
      await deleteComment(store, comment);
      await recordActivity(store, { accountId: who.account.id, action: 'delete_comment', targetId: uri, detail: {} });
    }
    return {};
  });

  // com.atproto.repo.putRecord of a threadgate: its key is its post's, and only the post's author writes it.
  app.post('/xrpc/com.atproto.repo.putRecord', async (request) => {
    const who = await account(request, 'com.atproto.repo.putRecord', true);
    requireScope(who, options, SCOPE.generic);
    const input = body(request);
    if (input.repo !== who.account.id)
      throw xrpcAnswer(400, 'InvalidRequest', 'Input/repo must be the DID of the session');
    if (input.collection !== THREADGATE)
      throw xrpcAnswer(400, 'InvalidRequest', `The sandbox puts ${THREADGATE} records only`);
    const record = body({ body: input.record } as FastifyRequest);
    const postUri = `at://${who.account.id}/${POST}/${String(input.rkey)}`;
    const post = await findPost(store, postUri);
    if (post === undefined || record.post !== postUri) {
      throw xrpcAnswer(400, 'InvalidRequest', 'A threadgate is keyed as its post, a post of the repository');
    }
    const hiddenReplies = Array.isArray(record.hiddenReplies) ? record.hiddenReplies.map(String) : [];
    if (hiddenReplies.length > 300)
      throw xrpcAnswer(400, 'InvalidRequest', 'Record/hiddenReplies must have at most 300 items');
    const { comments } = await listComments(store, post.id, { limit: 10_000 });
    for (const comment of comments) {
      const hide = hiddenReplies.includes(comment.id);
      if (comment.hidden !== hide) {
        await setCommentHidden(store, comment.id, hide);
        await recordActivity(store, {
          accountId: who.account.id,
          action: hide ? 'hide' : 'unhide',
          targetId: comment.id,
          detail: {},
        });
      }
    }
    const { hiddenReplies: _kept, ...rest } = record;
    gates.set(post.id, rest);
    return {
      uri: `at://${who.account.id}/${THREADGATE}/${String(input.rkey)}`,
      cid: cidOf('bafyrei', JSON.stringify(record)),
    };
  });

  app.get('/xrpc/com.atproto.repo.getRecord', async (request) => {
    await account(request, 'com.atproto.repo.getRecord');
    const query = request.query as Record<string, unknown>;
    const uri = `at://${String(query.repo)}/${String(query.collection)}/${String(query.rkey)}`;
    if (query.collection === THREADGATE) {
      const post = await findPost(store, `at://${String(query.repo)}/${POST}/${String(query.rkey)}`);
      const gate = post === undefined ? undefined : await threadgateOf(post);
      if (gate === undefined) throw xrpcAnswer(400, 'RecordNotFound', `Could not locate record: ${uri}`);
      return { uri: gate.uri, cid: gate.cid, value: gate.record };
    }
    const post = await findPost(store, uri);
    if (post === undefined) {
      const comment = await findComment(store, uri);
      if (comment === undefined) throw xrpcAnswer(400, 'RecordNotFound', `Could not locate record: ${uri}`);
      return {
        uri,
        cid: commentCid(comment),
        value: { $type: POST, text: comment.text, createdAt: comment.createdAt.toISOString() },
      };
    }
    return {
      uri,
      cid: postCid(post),
      value: { $type: POST, text: post.caption, createdAt: post.createdAt.toISOString() },
    };
  });
}
