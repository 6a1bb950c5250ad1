/**
 * TikTok, imitated: www.tiktok.com (the permission page) and open.tiktokapis.com (OAuth
 * tokens, user info, Content Posting API with PULL_FROM_URL). Shapes as in
 * docs/platforms.md ("TikTok"): API answers are `{"data":{...},"error":{"code":"ok",...}}`, OAuth
 * answers are flat, and errors are TikTok's own (tiktok/errors.ts).
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxAnswer } from './answers.ts';
import { registerAuthorizeDialog, withParams } from './authorize-page.ts';
import { type Caller, type CallOptions, caller, requireScope } from './caller.ts';
import { installAnswers, jsonInteger, requiredParam } from './kit.ts';
import { fetchMedia } from './media-fetch.ts';
import type { Store } from './platform.ts';
import {
  type SandboxAccount,
  type SandboxContainer,
  type SandboxToken,
  sandboxContainers,
  sandboxTokens,
} from './schema.ts';
import { recordActivity, recordPublication } from './store/activity.ts';
import { createContainer, findContainer, markContainerPublished } from './store/containers.ts';
import { issueToken, redeemCode } from './store/grants.ts';
import { createPost } from './store/posts.ts';
import { getSetting } from './store/settings.ts';
import { tiktok, tiktokAnswer, tiktokOAuthAnswer } from './tiktok/errors.ts';

const platform = 'tiktok';
const call: CallOptions = { platform, errors: tiktok };
const publishCall: CallOptions = { ...call, publishing: true };

const MINUTE = 60_000;
const CODE_TTL_MS = 10 * MINUTE;
const ACCESS_TOKEN_SECONDS = 86_400;
const REFRESH_TOKEN_SECONDS = 31_536_000;
const MAX_TITLE_LENGTH = 2_200;
/** The size reported for every pulled video: the sandbox downloads nothing. */
const VIDEO_BYTES = 1_048_576;
/** Publish ids look like TikTok's (`v_pub_url~v2.<digits>`); the digits are the container id. */
const PUBLISH_ID_PREFIX = 'v_pub_url~v2.';
/** Marks a container whose post is being made, so two status fetches never make two posts. */
const PUBLISHING = 'publishing';

const SCOPE = {
  basic: 'user.info.basic',
  profile: 'user.info.profile',
  stats: 'user.info.stats',
  upload: 'video.upload',
  publish: 'video.publish',
};

/** The user info fields the sandbox knows, and the scope each needs. */
const USER_FIELDS: Record<string, string> = {
  open_id: SCOPE.basic,
  union_id: SCOPE.basic,
  avatar_url: SCOPE.basic,
  avatar_url_100: SCOPE.basic,
  avatar_large_url: SCOPE.basic,
  display_name: SCOPE.basic,
  bio_description: SCOPE.profile,
  profile_deep_link: SCOPE.profile,
  is_verified: SCOPE.profile,
  username: SCOPE.profile,
  follower_count: SCOPE.stats,
  following_count: SCOPE.stats,
  likes_count: SCOPE.stats,
  video_count: SCOPE.stats,
};

/**
 * The privacy levels creator_info offers, by the account's privacy (Query Creator Info
 * reference, privacy_level_options): a public account's, and a private account's, which
 * has followers instead of everyone.
 */
const PUBLIC_ACCOUNT_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
const PRIVATE_ACCOUNT_PRIVACY_LEVELS = ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
/** An unaudited app may post only this (TikTok's Direct Post guidelines). */
const UNAUDITED_PRIVACY = 'SELF_ONLY';
/** Distinct users an unaudited app may have posting in 24 hours. */
const UNAUDITED_USER_CAP = 5;
const DAY_MS = 86_400_000;

function privacyLevelOptions(account: SandboxAccount): string[] {
  return account.private ? PRIVATE_ACCOUNT_PRIVACY_LEVELS : PUBLIC_ACCOUNT_PRIVACY_LEVELS;
}

/** TikTok's log ids: a timestamp and hex (`202210112248442CB9319E1FB30C1073F3`). */
function logId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}${randomBytes(10).toString('hex').toUpperCase()}`;
}

/** A successful API answer in TikTok's envelope. */
function ok(store: Store, data: Record<string, unknown>) {
  return { data, error: { code: 'ok', message: '', log_id: logId(store.now()) } };
}

function formOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function formString(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  if (typeof value !== 'string' || value === '') {
    throw tiktokOAuthAnswer(400, 'invalid_request', `The request parameter ${name} is missing.`);
  }
  return value;
}

function invalidGrant(what: string): SandboxAnswer {
  return tiktokOAuthAnswer(400, 'invalid_grant', `${what} is expired, already used, revoked, or not issued to you.`);
}

/** The access and refresh tokens of one grant, in the token endpoint's shape. */
async function tokenAnswer(
  store: Store,
  grant: { accountId: string; clientId: string; scopes: string[] },
  refreshTtlMs: number,
) {
  const common = { platform, accountId: grant.accountId, clientId: grant.clientId, scopes: grant.scopes };
  const access = await issueToken(store, { ...common, kind: 'long', prefix: 'act.' }, ACCESS_TOKEN_SECONDS * 1000);
  const refresh = await issueToken(store, { ...common, kind: 'refresh', prefix: 'rft.' }, refreshTtlMs);
  return {
    open_id: grant.accountId,
    scope: grant.scopes.join(','),
    access_token: access.token,
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refresh.token,
    refresh_expires_in: Math.round(refreshTtlMs / 1000),
    token_type: 'Bearer',
  };
}

/**
 * Ends a live refresh token of this client in one statement, so of two refreshes racing
 * with the same token only one wins (the token rotates). Null when it is not live.
 */
async function claimRefreshToken(store: Store, token: string, clientId: string): Promise<SandboxToken | null> {
  const now = store.now();
  const [row] = await store.db
    .update(sandboxTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sandboxTokens.token, token),
        eq(sandboxTokens.platform, platform),
        eq(sandboxTokens.kind, 'refresh'),
        eq(sandboxTokens.clientId, clientId),
        isNull(sandboxTokens.revokedAt),
        gt(sandboxTokens.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Revoking one token disconnects the app: every token of that user for that client ends.
 * Recorded in the activity log when there was something to end.
 */
async function revokeGrant(store: Store, token: string, clientId: string): Promise<void> {
  const [row] = await store.db
    .select()
    .from(sandboxTokens)
    .where(and(eq(sandboxTokens.token, token), eq(sandboxTokens.platform, platform)));
  if (!row || row.clientId !== clientId) return;
  const ended = await store.db
    .update(sandboxTokens)
    .set({ revokedAt: store.now() })
    .where(
      and(
        eq(sandboxTokens.platform, platform),
        eq(sandboxTokens.accountId, row.accountId),
        eq(sandboxTokens.clientId, clientId),
        isNull(sandboxTokens.revokedAt),
      ),
    )
    .returning();
  if (ended.length === 0) return;
  await recordActivity(store, {
    accountId: row.accountId,
    action: 'revoke',
    targetId: row.accountId,
    detail: { client_key: clientId, tokens: ended.length },
  });
}

/** The `fields` of a user info request, refused when unknown or beyond the token's scopes. */
function userFields(request: FastifyRequest, who: Caller): string[] {
  const fields = requiredParam(request, tiktok, 'fields')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  const unknown = fields.find((f) => USER_FIELDS[f] === undefined);
  if (unknown !== undefined) throw tiktok.badParameter(`Invalid field: ${unknown}`);
  for (const field of fields) requireScope(who, call, USER_FIELDS[field] as string);
  return fields;
}

function userValues(who: Caller): Record<string, unknown> {
  const a = who.account;
  return {
    open_id: a.id,
    union_id: a.id,
    avatar_url: a.avatarUrl,
    avatar_url_100: a.avatarUrl,
    avatar_large_url: a.avatarUrl,
    display_name: a.name,
    bio_description: '',
    profile_deep_link: `https://www.tiktok.com/@${encodeURIComponent(a.username)}`,
    is_verified: false,
    username: a.username,
    follower_count: a.followersCount,
    following_count: 0,
    likes_count: 0,
    video_count: 0,
  };
}

function jsonObject(value: unknown, name: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw tiktok.badParameter(`${name} must be an object`);
  }
  return value as Record<string, unknown>;
}

function httpUrl(value: unknown): URL | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/** TikTok's video restrictions: MP4, WebM or MOV, at most 4 GB. */
const MAX_VIDEO_BYTES = 4 * 1024 * 1024 * 1024;

/**
 * What TikTok finds on pulling the video (status fetch reference's fail reasons): null
 * when it is a video it accepts, `file_format_check_failed` for another kind of file,
 * `video_pull_failed` when the URL does not give one, `duration_check_failed` ("Video does
 * not meet our duration restrictions") when it lasts longer than the account may post. A
 * video whose length cannot be read is not refused for it.
 */
async function pullFailure(videoUrl: string, maxSeconds: number): Promise<string | null> {
  const fetched = await fetchMedia(videoUrl, ['mp4', 'webm', 'mov'], MAX_VIDEO_BYTES, { readDuration: true });
  if (!fetched.ok) return fetched.reason === 'format' ? 'file_format_check_failed' : 'video_pull_failed';
  const seconds = fetched.durationSeconds ?? null;
  return seconds !== null && seconds > maxSeconds ? 'duration_check_failed' : null;
}

/**
 * The Content Posting calls carry `Content-Type: application/json; charset=UTF-8`, TikTok's
 * reference says, creator_info/query too although it has no body.
 */
function requireJsonContentType(request: FastifyRequest): void {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw tiktok.badParameter('The Content-Type must be application/json; charset=UTF-8');
  }
}

/**
 * Whether `url` is under a verified `prefix`: a URL prefix (`https://cdn.example.com/videos/`)
 * or a domain (`cdn.example.com`, also its subdomains).
 */
function urlUnder(url: string, prefix: string): boolean {
  const target = new URL(url);
  if (!/^https?:\/\//.test(prefix)) return target.hostname === prefix || target.hostname.endsWith(`.${prefix}`);
  let root: URL;
  try {
    root = new URL(prefix);
  } catch {
    return false;
  }
  // Parsed, not as text: `https://cdn.example.com.evil.test/` is not under `https://cdn.example.com`.
  return target.origin === root.origin && target.pathname.startsWith(root.pathname);
}

/** A posting refusal, as TikTok's Direct Post reference lists them (HTTP 403). */
function postingRefusal(code: string, message: string): SandboxAnswer {
  return tiktokAnswer(403, code, message);
}

/** The validated video init request: post_info (a privacy level among `offered`) and a PULL_FROM_URL source. */
function videoInit(request: FastifyRequest, offered: readonly string[]) {
  const body = jsonObject(request.body ?? null, 'The request body');
  const postInfo = jsonObject(body.post_info ?? {}, 'post_info');
  const sourceInfo = jsonObject(body.source_info, 'source_info');
  const title = postInfo.title ?? '';
  if (typeof title !== 'string' || title.length > MAX_TITLE_LENGTH) {
    throw tiktok.badParameter(`post_info.title must be a string of at most ${MAX_TITLE_LENGTH} characters`);
  }
  const privacy = postInfo.privacy_level;
  if (typeof privacy !== 'string' || !offered.includes(privacy)) {
    throw postingRefusal(
      'privacy_level_option_mismatch',
      `privacy_level must be one of the creator's privacy_level_options: ${offered.join(', ')}`,
    );
  }
  // The Direct Post reference marks brand_content_toggle required; brand_organic_toggle has
  // no Required cell of its own there, so it is only held to its type.
  if (typeof postInfo.brand_content_toggle !== 'boolean') {
    throw tiktok.badParameter('post_info.brand_content_toggle is required and must be a bool');
  }
  const brandOrganic = postInfo.brand_organic_toggle ?? false;
  if (typeof brandOrganic !== 'boolean') {
    throw tiktok.badParameter('post_info.brand_organic_toggle must be a bool');
  }
  if (sourceInfo.source !== 'PULL_FROM_URL') {
    throw tiktok.badParameter('source_info.source must be PULL_FROM_URL (the sandbox takes no file uploads)');
  }
  const videoUrl = httpUrl(sourceInfo.video_url);
  if (videoUrl === null) throw tiktok.badParameter('source_info.video_url must be a public http(s) URL');
  return {
    title,
    privacy_level: privacy,
    disable_comment: postInfo.disable_comment === true,
    disable_duet: postInfo.disable_duet === true,
    disable_stitch: postInfo.disable_stitch === true,
    brand_content_toggle: postInfo.brand_content_toggle,
    brand_organic_toggle: brandOrganic,
    video_url: videoUrl.toString(),
  };
}

async function ownContainer(store: Store, who: Caller, publishId: string): Promise<SandboxContainer> {
  const id = publishId.startsWith(PUBLISH_ID_PREFIX) ? publishId.slice(PUBLISH_ID_PREFIX.length) : null;
  const container = id === null ? undefined : await findContainer(store, id);
  if (!container || container.accountId !== who.account.id) throw tiktok.notFound(publishId);
  return container;
}

/** Makes the container's post once; null while another request is making it. */
async function publishOnce(store: Store, who: Caller, container: SandboxContainer): Promise<string | null> {
  if (container.publishedPostId !== null) {
    return container.publishedPostId === PUBLISHING ? null : container.publishedPostId;
  }
  if (!(await markContainerPublished(store, container.id, PUBLISHING))) return null;
  const req = container.request;
  const post = await createPost(store, who.account, {
    caption: String(req.title ?? ''),
    mediaType: 'VIDEO',
    mediaUrl: String(req.video_url),
    viaApi: true,
  });
  await store.db
    .update(sandboxContainers)
    .set({ publishedPostId: post.id })
    .where(eq(sandboxContainers.id, container.id));
  const options = Object.fromEntries(
    (
      [
        'privacy_level',
        'disable_comment',
        'disable_duet',
        'disable_stitch',
        'brand_content_toggle',
        'brand_organic_toggle',
      ] as const
    ).map((name) => [name, req[name]]),
  );
  await recordPublication(
    store,
    post,
    { text: post.caption, mediaUrls: [String(req.video_url)], type: 'VIDEO', options },
    { publish_id: `${PUBLISH_ID_PREFIX}${container.id}`, ...req },
  );
  return post.id;
}

/** The status fetch answer: processing for a while, then FAILED or PUBLISH_COMPLETE. */
async function publishStatus(store: Store, who: Caller, container: SandboxContainer) {
  const size = VIDEO_BYTES;
  const age = store.now().getTime() - container.createdAt.getTime();
  const processingMs = (await getSetting(store, 'container_processing_seconds')) * 1000;
  if (age < processingMs) {
    return { status: 'PROCESSING_DOWNLOAD', publicaly_available_post_id: [], uploaded_bytes: 0, downloaded_bytes: 0 };
  }
  if (container.failure !== null) {
    return {
      status: 'FAILED',
      fail_reason: container.failure,
      publicaly_available_post_id: [],
      uploaded_bytes: 0,
      downloaded_bytes: size,
    };
  }
  const postId = await publishOnce(store, who, container);
  if (postId === null) {
    return { status: 'PROCESSING_UPLOAD', publicaly_available_post_id: [], uploaded_bytes: 0, downloaded_bytes: size };
  }
  // Only public posts have a public id, sent as an int64 number (list<int64> in TikTok's
  // reference), and only once moderation is done: "developers are not provided with the
  // post_id until this process is complete".
  const isPublic = container.request.privacy_level === 'PUBLIC_TO_EVERYONE';
  const moderationMs = (await getSetting(store, 'tiktok_moderation_seconds')) * 1000;
  const moderated = age >= processingMs + moderationMs;
  return {
    status: 'PUBLISH_COMPLETE',
    publicaly_available_post_id: isPublic && moderated ? [jsonInteger(postId)] : [],
    uploaded_bytes: size,
    downloaded_bytes: size,
  };
}

export function tiktokHosts(store: Store): Record<string, (app: FastifyInstance) => void> {
  return {
    'www.tiktok.com': (app) => {
      registerAuthorizeDialog(app, '/v2/auth/authorize/', store, {
        platform,
        label: 'TikTok (sandbox): allow access',
        clientParam: 'client_key',
        codeTtlMs: CODE_TTL_MS,
        withPages: false,
        success: (uri, { code, state, scopes }) => withParams(uri, { code, scopes: scopes.join(','), state }),
        cancel: (uri, state) =>
          withParams(uri, {
            error: 'access_denied',
            error_description: 'The user denied the authorization request.',
            state,
          }),
      });
    },

    'open.tiktokapis.com': (app) => {
      installAnswers(app, tiktok);
      // creator_info/query says application/json without a body, which Fastify's own parser refuses.
      app.removeContentTypeParser('application/json');
      app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
        if (body === '') return done(null, undefined);
        try {
          done(null, JSON.parse(String(body)));
        } catch {
          done(tiktok.badParameter('The request body is not valid JSON'), undefined);
        }
      });

      /**
       * What TikTok refuses of a post before taking it: an unaudited app posts only to
       * private accounts, only SELF_ONLY and for at most 5 users a day, and PULL_FROM_URL
       * takes only URLs the app verified (Direct Post reference and guidelines).
       */
      async function checkPostingRules(who: Caller, privacy: string, videoUrl: string): Promise<void> {
        if ((await getSetting(store, 'tiktok_client_audit')) === 'unaudited') {
          // The Direct Post reference's error table: "Unaudited clients can only post to a
          // private account. The publish attempt will be blocked", whatever the post's privacy.
          if (!who.account.private) {
            throw postingRefusal(
              'unaudited_client_can_only_post_to_private_accounts',
              'Unaudited clients can only post to a private account',
            );
          }
          // "Unaudited API Clients can only post contents in SELF_ONLY viewership" (Content
          // Sharing Guidelines). TikTok does not say how it refuses another level from a
          // private account; the sandbox answers the one unaudited refusal it documents.
          if (privacy !== UNAUDITED_PRIVACY) {
            throw postingRefusal(
              'unaudited_client_can_only_post_to_private_accounts',
              'Unaudited clients can only post SELF_ONLY content',
            );
          }
          const posters = await recentPosters(who.token.clientId);
          if (!posters.includes(who.account.id) && posters.length >= UNAUDITED_USER_CAP) {
            throw postingRefusal(
              'reached_active_user_cap',
              'The daily quota for active publishing users from your client is reached',
            );
          }
        }
        const verified = (await getSetting(store, 'tiktok_verified_url_prefixes'))
          .split(',')
          .map((p) => p.trim())
          .filter((p) => p !== '');
        if (!verified.includes('*') && !verified.some((prefix) => urlUnder(videoUrl, prefix))) {
          throw postingRefusal(
            'url_ownership_unverified',
            'To use PULL_FROM_URL, the developer must verify the ownership of the URL prefix or domain',
          );
        }
      }

      /** The users who posted through this app in the last 24 hours. */
      async function recentPosters(clientId: string): Promise<string[]> {
        const since = new Date(store.now().getTime() - DAY_MS);
        const rows = await store.db
          .selectDistinct({ accountId: sandboxContainers.accountId })
          .from(sandboxContainers)
          .where(
            and(sql`${sandboxContainers.request}->>'client_id' = ${clientId}`, gt(sandboxContainers.createdAt, since)),
          );
        return rows.map((r) => r.accountId);
      }

      app.post('/v2/oauth/token/', async (request) => {
        const form = formOf(request);
        const clientKey = formString(form, 'client_key');
        formString(form, 'client_secret');
        const grantType = formString(form, 'grant_type');
        if (grantType === 'authorization_code') {
          const grant = await redeemCode(store, {
            platform,
            code: formString(form, 'code'),
            clientId: clientKey,
            redirectUri: formString(form, 'redirect_uri'),
          });
          if (!grant) throw invalidGrant('The authorization code');
          return tokenAnswer(store, grant, REFRESH_TOKEN_SECONDS * 1000);
        }
        if (grantType === 'refresh_token') {
          const old = await claimRefreshToken(store, formString(form, 'refresh_token'), clientKey);
          if (!old) throw invalidGrant('The refresh token');
          // A refresh token lives 365 days from the first grant: its successor keeps that end.
          const left = (old.expiresAt?.getTime() ?? 0) - store.now().getTime();
          return tokenAnswer(store, old, left);
        }
        throw tiktokOAuthAnswer(400, 'invalid_request', 'grant_type must be authorization_code or refresh_token.');
      });

      app.post('/v2/oauth/revoke/', async (request) => {
        const form = formOf(request);
        const clientKey = formString(form, 'client_key');
        formString(form, 'client_secret');
        await revokeGrant(store, formString(form, 'token'), clientKey);
        // As RFC 7009: an unknown or already revoked token is no error.
        return {};
      });

      app.get('/v2/user/info/', async (request) => {
        const who = await caller(store, request, call);
        const fields = userFields(request, who);
        const values = userValues(who);
        return ok(store, { user: Object.fromEntries(fields.map((f) => [f, values[f]])) });
      });

      app.post('/v2/post/publish/creator_info/query/', async (request) => {
        requireJsonContentType(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.publish);
        return ok(store, {
          creator_avatar_url: who.account.avatarUrl,
          creator_username: who.account.username,
          creator_nickname: who.account.name,
          privacy_level_options: privacyLevelOptions(who.account),
          comment_disabled: false,
          // "Returns true if the creator account is private or they set the Duet (Stitch)
          // interaction to "No one"" (Query Creator Info reference).
          duet_disabled: who.account.private,
          stitch_disabled: who.account.private,
          max_video_post_duration_sec: await getSetting(store, 'tiktok_max_video_post_duration_sec'),
        });
      });

      app.post('/v2/post/publish/video/init/', async (request) => {
        requireJsonContentType(request);
        const who = await caller(store, request, publishCall);
        requireScope(who, call, SCOPE.publish);
        const values = videoInit(request, privacyLevelOptions(who.account));
        await checkPostingRules(who, values.privacy_level, values.video_url);
        const failure = await pullFailure(
          values.video_url,
          await getSetting(store, 'tiktok_max_video_post_duration_sec'),
        );
        const clientId = who.token.clientId;
        const container = await createContainer(store, who.account.id, { ...values, client_id: clientId }, failure);
        return ok(store, { publish_id: `${PUBLISH_ID_PREFIX}${container.id}` });
      });

      app.post('/v2/post/publish/status/fetch/', async (request) => {
        requireJsonContentType(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.publish, SCOPE.upload);
        const publishId = formOf(request).publish_id;
        if (typeof publishId !== 'string' || publishId === '') {
          throw tiktok.badParameter('The parameter publish_id is required');
        }
        const container = await ownContainer(store, who, publishId);
        return ok(store, await publishStatus(store, who, container));
      });
    },
  };
}
