/**
 * TikTok (Login Kit v2 and the Content Posting API, PULL_FROM_URL). Not Graph-style: API
 * answers carry `{"data":{...},"error":{"code":"ok"}}`, OAuth answers a flat
 * `{error, error_description}`. Facts: shared/platforms.md.
 */
import { tiktokDeauthorizedUsers } from './deauthorization.ts';
import {
  type AdapterOptions,
  callPlatform,
  expectObject,
  list,
  num,
  type PlatformRequest,
  type PlatformResponse,
  record,
  requiredText,
  retryAfterSeconds,
  str,
  unsupported,
} from './http.ts';
import { denyCallback, invalidRequest, reportingMissingScopes, splitScopes, tokenExpiry } from './shared.ts';
import {
  type AuthorizeCallback,
  type ContainerState,
  type GrantedTokenSet,
  type PlatformAdapter,
  PlatformError,
  type PlatformErrorKind,
  type PlatformProfile,
  type PublishRequest,
} from './types.ts';

const platform = 'tiktok';
const MINUTES = 60_000;
const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 60;
/** TikTok's daily cap on posts by one creator; it says nothing about when it lifts. */
const DAILY_CAP_WAIT_SECONDS = 3600;
const MAX_TITLE_LENGTH = 2_200;

const SCOPE = {
  basic: 'user.info.basic',
  profile: 'user.info.profile',
  stats: 'user.info.stats',
  videoList: 'video.list',
  publish: 'video.publish',
} as const;

const PROFILE_FIELDS = 'open_id,avatar_url,display_name,username,follower_count';
/** What user.info.basic alone may read. */
const BASIC_PROFILE_FIELDS = 'open_id,avatar_url,display_name';

const PUBLISH_STATES: Record<string, ContainerState> = {
  PROCESSING_DOWNLOAD: 'in_progress',
  PROCESSING_UPLOAD: 'in_progress',
  PUBLISH_COMPLETE: 'published',
  FAILED: 'failed',
};

const PREFERRED_PRIVACY = 'PUBLIC_TO_EVERYONE';

/**
 * The kind of a TikTok error code (API `error.code` or OAuth `error`), null when the code
 * says nothing the HTTP status does not.
 */
function kindOfCode(code: string): PlatformErrorKind | null {
  switch (code) {
    // TikTok answers the same for an expired token and one the user revoked: both are
    // `access_token_invalid`. Revocation is told by the `authorization.removed` webhook.
    case 'access_token_invalid':
    // A code or refresh token that expired, was used or was revoked: reconnect.
    case 'invalid_grant':
      return 'token_expired';
    case 'scope_not_authorized':
    case 'scope_permission_missed':
      return 'permission_missing';
    case 'rate_limit_exceeded':
    case 'spam_risk_too_many_posts':
    case 'spam_risk_too_many_pending_share':
      return 'rate_limited';
    case 'internal_error':
    case 'server_error':
    case 'temporarily_unavailable':
      return 'transient';
    case 'invalid_params':
    case 'invalid_request':
    case 'invalid_client':
    case 'unsupported_grant_type':
    case 'invalid_scope':
      return 'invalid_request';
    default:
      return null;
  }
}

function kindOfStatus(status: number): PlatformErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 401) return 'token_expired';
  if (status === 403) return 'permission_missing';
  return status >= 500 ? 'transient' : 'invalid_request';
}

/** Classifies a TikTok error answer: the API envelope, the OAuth one, or neither. */
export function tiktokError(response: PlatformResponse, now: Date): PlatformError {
  const body = record(response.body);
  const envelope = record(body.error);
  const oauth = typeof body.error === 'string';
  const code = oauth ? str(body.error) : str(envelope.code);
  const platformMessage =
    (oauth ? str(body.error_description) : str(envelope.message)) ||
    code ||
    response.text.slice(0, 300) ||
    `HTTP ${response.status}`;
  const kind = (code !== null ? kindOfCode(code) : null) ?? kindOfStatus(response.status);
  const retryAfter =
    kind === 'rate_limited'
      ? (retryAfterSeconds(response, now) ??
        (code?.startsWith('spam_risk') ? DAILY_CAP_WAIT_SECONDS : DEFAULT_RATE_LIMIT_WAIT_SECONDS))
      : undefined;
  return new PlatformError(kind, `tiktok: ${platformMessage}`, {
    platform,
    status: response.status,
    ...(code !== null && code !== '' ? { code } : {}),
    platformMessage,
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
  });
}

/** An API answer failed: HTTP error, or an `error.code` other than "ok". */
function apiFailed(response: PlatformResponse): boolean {
  const body = record(response.body);
  if (response.status >= 400 || typeof body.error === 'string') return true;
  const code = str(record(body.error).code);
  return code !== null && code !== 'ok';
}

/** A field the answer must carry, possibly empty; missing, the answer is a platform fault. */
function requiredField(value: unknown, field: string): unknown {
  if (value === undefined || value === null) {
    throw new PlatformError('transient', `tiktok answered without ${field}`, { platform });
  }
  return value;
}

export function tiktokAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const api = (path: string) => `${options.hostUrl('open.tiktokapis.com')}${path}`;

  async function send(call: PlatformRequest): Promise<Record<string, unknown>> {
    const response = await callPlatform(platform, call, options);
    if (apiFailed(response)) throw tiktokError(response, now());
    return expectObject(platform, response);
  }

  /** An API call with the user's token: its `data`. */
  async function callApi(
    method: 'GET' | 'POST',
    path: string,
    token: string,
    extra: Pick<PlatformRequest, 'query' | 'json'> = {},
  ): Promise<Record<string, unknown>> {
    const body = await send({ method, url: api(path), bearer: token, ...extra });
    return record(body.data);
  }

  /** The token endpoint: a code exchange or a refresh, both answering a whole grant with its scopes. */
  async function grant(form: Record<string, string>): Promise<GrantedTokenSet> {
    const body = await send({
      method: 'POST',
      url: api('/v2/oauth/token/'),
      form: { client_key: options.clientId, client_secret: options.clientSecret, ...form },
    });
    const at = now();
    return {
      accessToken: requiredText(platform, body.access_token, 'access_token'),
      expiresAt: tokenExpiry(at, body.expires_in),
      refreshToken: requiredText(platform, body.refresh_token, 'refresh_token'),
      refreshExpiresAt: tokenExpiry(at, body.refresh_expires_in),
      platformUserId: requiredText(platform, body.open_id, 'open_id'),
      // What the user granted; an empty list is an answer too.
      scopes: splitScopes(requiredField(body.scope, 'scope')),
    };
  }

  async function readUser(token: string, fields: string): Promise<Record<string, unknown>> {
    const data = await callApi('GET', '/v2/user/info/', token, { query: { fields } });
    return record(data.user);
  }

  async function creatorInfo(token: string): Promise<Record<string, unknown>> {
    return callApi('POST', '/v2/post/publish/creator_info/query/', token);
  }

  async function fetchStatus(token: string, publishId: string) {
    return callApi('POST', '/v2/post/publish/status/fetch/', token, { json: { publish_id: publishId } });
  }

  /** The one video a TikTok post carries; anything else is refused before any call. */
  function singleVideo({ media, text }: PublishRequest): string {
    const [first] = media;
    if (media.length !== 1 || first === undefined || first.type !== 'video') {
      throw unsupported(platform, 'posts other than a single video (no images, carousels or text-only posts)');
    }
    if ((text ?? '').length > MAX_TITLE_LENGTH) {
      throw invalidRequest(platform, `the text is longer than ${MAX_TITLE_LENGTH} characters`);
    }
    return first.url;
  }

  return reportingMissingScopes({
    platform,
    grantsPages: false,
    scopes: {
      requested: [SCOPE.basic, SCOPE.profile, SCOPE.stats, SCOPE.videoList, SCOPE.publish],
      required: [SCOPE.basic],
      // Comments, replies and insights need TikTok's API for Business: unsupported here.
      byAction: {
        read_profile: [SCOPE.basic],
        publish: [SCOPE.publish],
      },
    },
    // Access tokens live 24 h: refreshing in the last 30 minutes leaves the job room to retry.
    refresh: { refreshBeforeExpiryMs: 30 * MINUTES, minTokenAgeMs: 0 },
    metrics: { account: [], post: [] },

    authorizeUrl({ redirectUri, state, scopes }) {
      const url = new URL(`${options.hostUrl('www.tiktok.com')}/v2/auth/authorize/`);
      url.search = new URLSearchParams({
        client_key: options.clientId,
        scope: (scopes ?? this.scopes.requested).join(','),
        redirect_uri: redirectUri,
        state,
        response_type: 'code',
      }).toString();
      return url.toString();
    },

    parseDeauthorization(notice) {
      return tiktokDeauthorizedUsers(
        notice,
        { clientKey: options.clientId, clientSecret: options.clientSecret },
        now(),
      );
    },

    parseCallback(query): AuthorizeCallback {
      const state = str(query.state);
      const code = str(query.code);
      if (code !== null && code !== '') return { outcome: 'code', code, state };
      return denyCallback(query, state);
    },

    exchangeCode(code, redirectUri) {
      return grant({ code, grant_type: 'authorization_code', redirect_uri: redirectUri });
    },

    refreshToken({ refreshToken }) {
      if (refreshToken === undefined || refreshToken === '') {
        return Promise.reject(invalidRequest(platform, 'a refresh needs the refresh token'));
      }
      // The answer carries a new refresh token; the one sent stops working.
      return grant({ grant_type: 'refresh_token', refresh_token: refreshToken });
    },

    async profile({ accessToken }): Promise<PlatformProfile> {
      let user: Record<string, unknown>;
      try {
        user = await readUser(accessToken, PROFILE_FIELDS);
      } catch (error) {
        // username needs user.info.profile and follower_count user.info.stats, which the user may not have granted.
        if (!(error instanceof PlatformError) || error.kind !== 'permission_missing') throw error;
        user = await readUser(accessToken, BASIC_PROFILE_FIELDS);
      }
      return {
        id: requiredText(platform, user.open_id, 'open_id'),
        username: str(user.username),
        name: str(user.display_name),
        avatarUrl: str(user.avatar_url),
        followersCount: num(user.follower_count),
      };
    },

    async pages() {
      throw unsupported(platform, 'pages');
    },

    async recentComments() {
      throw unsupported(platform, 'reading comments (it needs the TikTok API for Business)');
    },

    async reply() {
      throw unsupported(platform, 'replying to comments (it needs the TikTok API for Business)');
    },

    async setHidden() {
      throw unsupported(platform, 'hiding comments (it needs the TikTok API for Business)');
    },

    async accountInsights() {
      throw unsupported(platform, 'account insights (it needs the TikTok API for Business)');
    },

    async postInsights() {
      throw unsupported(platform, 'post insights (it needs the TikTok API for Business)');
    },

    async createContainer({ accessToken }, request) {
      const videoUrl = singleVideo(request);
      // TikTok requires asking which privacy levels this creator may use right before posting.
      const creator = await creatorInfo(accessToken);
      const allowed = list(creator.privacy_level_options)
        .map(str)
        .filter((o): o is string => o !== null);
      const privacy = allowed.includes(PREFERRED_PRIVACY) ? PREFERRED_PRIVACY : allowed[0];
      if (privacy === undefined) throw invalidRequest(platform, 'the creator may not post (no privacy level allowed)');
      const data = await callApi('POST', '/v2/post/publish/video/init/', accessToken, {
        json: {
          post_info: { title: request.text ?? '', privacy_level: privacy },
          source_info: { source: 'PULL_FROM_URL', video_url: videoUrl },
        },
      });
      return { containerId: requiredText(platform, data.publish_id, 'publish_id') };
    },

    async containerStatus({ accessToken }, containerId) {
      const data = await fetchStatus(accessToken, containerId);
      const status = str(data.status) ?? '';
      const state = PUBLISH_STATES[status];
      if (state === undefined) {
        throw new PlatformError('transient', `tiktok: unknown publish status ${JSON.stringify(status)}`, { platform });
      }
      const reason = str(data.fail_reason);
      return state === 'failed' && reason ? { state, message: reason } : { state };
    },

    async publishContainer({ accessToken }, containerId) {
      // TikTok publishes by itself once the video is processed: publishing is waiting for that.
      const data = await fetchStatus(accessToken, containerId);
      const status = str(data.status) ?? '';
      if (status === 'FAILED') {
        const reason = str(data.fail_reason) || 'unknown reason';
        throw new PlatformError('invalid_request', `tiktok: the post failed: ${reason}`, {
          platform,
          code: 'FAILED',
          platformMessage: reason,
        });
      }
      if (status !== 'PUBLISH_COMPLETE') {
        throw new PlatformError('transient', `tiktok: the post is not finished yet (${status || 'no status'})`, {
          platform,
        });
      }
      // TikTok's spelling; int64s, which parseJson keeps exact.
      const id = str(list(data.publicaly_available_post_id)[0]);
      // A post that is not public has no public id: the publish id is all there is to name it.
      if (id === null) return { id: containerId, permalink: null };
      const username = str((await creatorInfo(accessToken)).creator_username);
      const permalink = username ? `https://www.tiktok.com/@${encodeURIComponent(username)}/video/${id}` : null;
      return { id, permalink };
    },
  });
}
