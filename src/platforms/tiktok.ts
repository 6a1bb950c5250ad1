/**
 * TikTok (Login Kit v2 and the Content Posting API, PULL_FROM_URL). Not Graph-style: API
 * answers carry `{"data":{...},"error":{"code":"ok"}}`, OAuth answers a flat
 * `{error, error_description}`. Facts: docs/platforms.md, "TikTok".
 */
import { Type } from 'typebox';
import { tiktokDeauthorizedUsers } from './deauthorization.ts';
import type { PlatformDefinition } from './definition.ts';
import { invalidRequest } from './errors.ts';
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
} from './http.ts';
import { reportingMissingScopes } from './missing-scopes.ts';
import { booleanProblem, draftOf, optionsOf, problem, refuseProblems } from './publish-checks.ts';
import { callbackOf, loginUrl, splitScopes, tokenExpiry } from './sign-in.ts';
import {
  type ContainerState,
  type GrantedTokenSet,
  type PlatformAdapter,
  PlatformError,
  type PlatformErrorKind,
  type PlatformProfile,
  type PublishDraft,
  type PublishProblem,
  type PublishRequest,
  type ScopePolicy,
} from './types.ts';

const platform = 'tiktok';
const MINUTES = 60_000;
const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 60;
/** TikTok's daily caps (posts by one creator, users posting through one app) say nothing about when they lift. */
const DAILY_CAP_WAIT_SECONDS = 3600;
const DAILY_CAP_CODES = new Set([
  'spam_risk_too_many_posts',
  'spam_risk_too_many_pending_share',
  'reached_active_user_cap',
]);
/** Direct Post reference: `title` at most 2,200 UTF-16 code units. */
const MAX_TITLE_LENGTH = 2_200;
/** "Only me": the privacy level of a post nobody else sees. */
const PRIVATE_PRIVACY = 'SELF_ONLY';

const TIKTOK_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;

/**
 * What a TikTok post takes beside its text (`platforms.tiktok`): the post settings TikTok
 * requires the user to choose (never picked for them), and its commercial content disclosure.
 */
const TIKTOK_OPTIONS = Type.Object(
  {
    privacy_level: Type.Optional(
      Type.Enum(TIKTOK_PRIVACY_LEVELS, {
        description:
          'Required for TikTok: who may watch, chosen by the creator among the options TikTok offers them (`creator_info`); checked against those when publishing. A private account is offered `FOLLOWER_OF_CREATOR`, `MUTUAL_FOLLOW_FRIENDS` and `SELF_ONLY`, a public one `PUBLIC_TO_EVERYONE`, `MUTUAL_FOLLOW_FRIENDS` and `SELF_ONLY`. An app TikTok has not audited may post only `SELF_ONLY`, and only to private accounts.',
      }),
    ),
    disable_comment: Type.Optional(Type.Boolean()),
    disable_duet: Type.Optional(Type.Boolean()),
    disable_stitch: Type.Optional(Type.Boolean()),
    brand_content_toggle: Type.Optional(
      Type.Boolean({
        description:
          'TikTok\'s commercial content disclosure, "Branded content": the video is a paid partnership promoting a third party; TikTok labels it \'Paid partnership\'. Not with `privacy_level` `SELF_ONLY` ("Branded content visibility cannot be set to private."). Default false.',
      }),
    ),
    brand_organic_toggle: Type.Optional(
      Type.Boolean({
        description:
          "TikTok's commercial content disclosure, \"Your brand\": the video promotes the creator's own business; TikTok labels it 'Promotional content' ('Paid partnership' when `brand_content_toggle` is set too). Default false.",
      }),
    ),
  },
  { additionalProperties: false },
);

/** Every TikTok rule the draft breaks: one video, a title within bounds, the post settings TikTok requires. */
function tiktokProblems({ text, media, options: given }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (media.length !== 1 || media[0]?.type !== 'video') {
    problems.push(problem('media_ids', 'a TikTok post is exactly one video (no images, carousels or text-only posts)'));
  }
  if ((text ?? '').length > MAX_TITLE_LENGTH) {
    problems.push(problem('text', `a TikTok title has at most ${MAX_TITLE_LENGTH} characters`));
  }
  const options = optionsOf(TIKTOK_OPTIONS, given);
  // TikTok's UX guidelines: the user picks the privacy level, with no default.
  if (options.privacy_level === undefined) {
    problems.push(
      problem(
        'platforms.tiktok.privacy_level',
        `is required: the privacy level the creator chose, one of ${TIKTOK_PRIVACY_LEVELS.join(', ')} (as creator_info offers them)`,
      ),
    );
  } else if (!(TIKTOK_PRIVACY_LEVELS as readonly unknown[]).includes(options.privacy_level)) {
    problems.push(problem('platforms.tiktok.privacy_level', `must be one of ${TIKTOK_PRIVACY_LEVELS.join(', ')}`));
  }
  for (const field of [
    'disable_comment',
    'disable_duet',
    'disable_stitch',
    'brand_content_toggle',
    'brand_organic_toggle',
  ] as const) {
    const found = booleanProblem(options[field], `platforms.tiktok.${field}`);
    if (found !== null) problems.push(found);
  }
  // TikTok documents no API error for it: the rule is in the Content Sharing Guidelines
  // (https://developers.tiktok.com/doc/content-sharing-guidelines, "Privacy Management"),
  // which TikTok's audit holds apps to. "Only me" is SELF_ONLY.
  if (options.brand_content_toggle === true && options.privacy_level === PRIVATE_PRIVACY) {
    problems.push(
      problem(
        'platforms.tiktok.brand_content_toggle',
        `Branded content visibility cannot be set to private. Branded content (a paid partnership) needs a privacy_level other than ${PRIVATE_PRIVACY}.`,
      ),
    );
  }
  return problems;
}

/**
 * A video longer than the creator may post. The Content Sharing Guidelines
 * (https://developers.tiktok.com/doc/content-sharing-guidelines): "API clients must check if
 * the duration of the to-be-posted video follows the max_video_post_duration_sec returned in
 * the creator_info API"; the limit differs from creator to creator, so only creator_info
 * knows it. A video of unknown length, or no limit in the answer, is left to TikTok, which
 * fails it after the pull (`duration_check_failed`).
 */
function durationProblems(request: PublishRequest, maxSeconds: number | null): PublishProblem[] {
  if (maxSeconds === null) return [];
  const long = request.media.find(
    (m) => m.type === 'video' && typeof m.durationSeconds === 'number' && m.durationSeconds > maxSeconds,
  );
  if (long === undefined) return [];
  // Rounded up, so a video a fraction of a second too long never reads as the limit itself.
  const lasts = Math.ceil((long.durationSeconds as number) * 100) / 100;
  return [
    problem('media_ids', `the video lasts ${lasts} s; this TikTok account may post videos of at most ${maxSeconds} s`),
  ];
}

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

/**
 * A container id is the privacy level and TikTok's publish_id (`SELF_ONLY:v_pub_url~v2.123`):
 * only the privacy level tells whether a PUBLISH_COMPLETE without a public post id is final.
 */
const CONTAINER_ID = /^([A-Z_]+):(.+)$/;
const PUBLIC_PRIVACY = 'PUBLIC_TO_EVERYONE';

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
    // Posting errors, as TikTok's Direct Post reference lists them
    // (https://developers.tiktok.com/doc/content-posting-api-reference-direct-post):
    // the creator's daily cap of API posts, or of shares waiting in the inbox.
    case 'spam_risk_too_many_posts':
    case 'spam_risk_too_many_pending_share':
    // The app's daily quota of distinct users posting (5 for an unaudited app): slots free
    // up as the 24-hour window rolls.
    case 'reached_active_user_cap':
      return 'rate_limited';
    // An unaudited app posts only SELF_ONLY, from private accounts: another privacy level will not do.
    case 'unaudited_client_can_only_post_to_private_accounts':
    // PULL_FROM_URL needs a URL prefix or domain the app verified with TikTok.
    case 'url_ownership_unverified':
    // The privacy level is missing or not among the creator's privacy_level_options.
    case 'privacy_level_option_mismatch':
    // The creator may not post at all (spam_risk_user_banned_from_posting), or TikTok judged
    // this post spam: sending it again will not help.
    case 'spam_risk_user_banned_from_posting':
      return 'invalid_request';
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
      return code.startsWith('spam_risk') ? 'invalid_request' : null;
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
        (code !== null && DAILY_CAP_CODES.has(code) ? DAILY_CAP_WAIT_SECONDS : DEFAULT_RATE_LIMIT_WAIT_SECONDS))
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

/** The privacy level and publish_id a container id holds (see CONTAINER_ID). */
function containerParts(containerId: string): { privacy: string; publishId: string } {
  const match = CONTAINER_ID.exec(containerId);
  if (!match) throw invalidRequest(platform, `not a TikTok post container: ${containerId.slice(0, 60)}`);
  return { privacy: match[1] as string, publishId: match[2] as string };
}

/** A field the answer must carry, possibly empty; missing, the answer is a platform fault. */
function requiredField(value: unknown, field: string): unknown {
  if (value === undefined || value === null) {
    throw new PlatformError('transient', `tiktok answered without ${field}`, { platform });
  }
  return value;
}

const SCOPES: ScopePolicy = {
  requested: [SCOPE.basic, SCOPE.profile, SCOPE.stats, SCOPE.videoList, SCOPE.publish],
  required: [SCOPE.basic],
  // Comments, replies and insights need TikTok's API for Business: unsupported here.
  byAction: {
    read_profile: [SCOPE.basic],
    publish: [SCOPE.publish],
  },
};

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
    extra: Pick<PlatformRequest, 'query' | 'json' | 'jsonWithoutBody'> = {},
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

  /** TikTok's reference sends no body here, but requires the JSON content type all the same. */
  async function creatorInfo(token: string): Promise<Record<string, unknown>> {
    return callApi('POST', '/v2/post/publish/creator_info/query/', token, { jsonWithoutBody: true });
  }

  /**
   * Where a post stands. PUBLISH_COMPLETE is final for a post that is not public; a public
   * one goes through TikTok's moderation first, which may take hours, and only then gets
   * the public id TikTok's status answer carries
   * (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status).
   */
  async function postState(token: string, containerId: string) {
    const { privacy, publishId } = containerParts(containerId);
    const data = await fetchStatus(token, publishId);
    const status = str(data.status) ?? '';
    const state = PUBLISH_STATES[status];
    if (state === undefined) {
      throw new PlatformError('transient', `tiktok: unknown publish status ${JSON.stringify(status)}`, { platform });
    }
    // TikTok's spelling; int64s, which parseJson keeps exact.
    const publicId = str(list(data.publicaly_available_post_id)[0]);
    const moderating = state === 'published' && privacy === PUBLIC_PRIVACY && publicId === null;
    return { state: moderating ? ('in_progress' as const) : state, status, moderating, publicId, publishId, data };
  }

  async function fetchStatus(token: string, publishId: string) {
    return callApi('POST', '/v2/post/publish/status/fetch/', token, { json: { publish_id: publishId } });
  }

  /** The post a finished publish became: its public id and link, or for a post that is not public its publish id. */
  async function publishedPost(token: string, publicId: string | null, publishId: string) {
    if (publicId === null) return { id: publishId, permalink: null };
    const username = str((await creatorInfo(token)).creator_username);
    const permalink = username ? `https://www.tiktok.com/@${encodeURIComponent(username)}/video/${publicId}` : null;
    return { id: publicId, permalink };
  }

  return reportingMissingScopes({
    platform,
    scopes: SCOPES,
    // Access tokens live 24 h: refreshing in the last 30 minutes leaves the job room to retry.
    refresh: { refreshBeforeExpiryMs: 30 * MINUTES, minTokenAgeMs: 0 },

    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(`${options.hostUrl('www.tiktok.com')}/v2/auth/authorize/`, {
        client_key: options.clientId,
        scope: (scopes ?? SCOPES.requested).join(','),
        redirect_uri: redirectUri,
        state,
        response_type: 'code',
      });
    },

    parseDeauthorization(notice) {
      return tiktokDeauthorizedUsers(
        notice,
        { clientKey: options.clientId, clientSecret: options.clientSecret },
        now(),
      );
    },

    parseCallback(query) {
      return callbackOf(query);
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

    async revokeAccess({ accessToken }) {
      // "Revoke a User Access Token" (https://developers.tiktok.com/docs/en/oauth-revoke-a-user-access-token):
      // form client_key, client_secret, token; an empty answer ({}) confirms it, and the user's
      // every token for the app ends with it.
      const response = await callPlatform(
        platform,
        {
          method: 'POST',
          url: api('/v2/oauth/revoke/'),
          form: { client_key: options.clientId, client_secret: options.clientSecret, token: accessToken },
        },
        options,
      );
      if (apiFailed(response)) throw tiktokError(response, now());
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

    publishing: {
      checkPublish(draft) {
        return tiktokProblems(draft);
      },

      async createContainer({ accessToken }, request) {
        refuseProblems(platform, tiktokProblems(draftOf(request)));
        const options = optionsOf(TIKTOK_OPTIONS, request.options);
        // refuseProblems made sure there is one.
        const privacy = options.privacy_level as string;
        // TikTok requires asking which privacy levels this creator may use right before posting.
        const creator = await creatorInfo(accessToken);
        const offered = list(creator.privacy_level_options)
          .map(str)
          .filter((o): o is string => o !== null);
        if (!offered.includes(privacy)) {
          const platformMessage = `privacy_level ${privacy} is not among the creator's privacy_level_options (${offered.join(', ') || 'none'})`;
          throw new PlatformError('invalid_request', `tiktok: ${platformMessage}`, {
            platform,
            code: 'privacy_level_option_mismatch',
            platformMessage,
          });
        }
        refuseProblems(platform, durationProblems(request, num(creator.max_video_post_duration_sec)));
        // https://developers.tiktok.com/doc/content-posting-api-reference-direct-post: the
        // interaction switches are post_info booleans; a creator who turned one off in the
        // app has it off whatever the post says. The reference marks brand_content_toggle
        // required (though its own example leaves it out), and brand_organic_toggle most
        // likely too (the Photo reference marks both): both are always sent, false when not chosen.
        const data = await callApi('POST', '/v2/post/publish/video/init/', accessToken, {
          json: {
            post_info: {
              title: request.text ?? '',
              privacy_level: privacy,
              disable_comment: options.disable_comment === true || creator.comment_disabled === true,
              disable_duet: options.disable_duet === true || creator.duet_disabled === true,
              disable_stitch: options.disable_stitch === true || creator.stitch_disabled === true,
              brand_content_toggle: options.brand_content_toggle === true,
              brand_organic_toggle: options.brand_organic_toggle === true,
            },
            source_info: { source: 'PULL_FROM_URL', video_url: (request.media[0] as { url: string }).url },
          },
        });
        return { containerId: `${privacy}:${requiredText(platform, data.publish_id, 'publish_id')}` };
      },

      async containerStatus({ accessToken }, containerId) {
        const { state, status, moderating, data } = await postState(accessToken, containerId);
        if (state === 'in_progress') {
          return {
            state,
            message: moderating
              ? "waiting for TikTok's moderation of the public post, which may take hours; it has no public id until then"
              : `TikTok is still processing the video (${status})`,
          };
        }
        const reason = str(data.fail_reason);
        return state === 'failed' && reason ? { state, message: reason } : { state };
      },

      async publishContainer({ accessToken }, containerId) {
        // TikTok publishes by itself once the video is processed: publishing is waiting for that.
        const post = await postState(accessToken, containerId);
        if (post.state === 'failed') {
          const reason = str(post.data.fail_reason) || 'unknown reason';
          throw new PlatformError('invalid_request', `tiktok: the post failed: ${reason}`, {
            platform,
            code: 'FAILED',
            platformMessage: reason,
          });
        }
        if (post.state !== 'published') {
          const why = post.moderating ? "waiting for TikTok's moderation, which may take hours" : post.status;
          throw new PlatformError('transient', `tiktok: the post is not finished yet (${why})`, { platform });
        }
        return publishedPost(accessToken, post.publicId, post.publishId);
      },

      async publishingQuota() {
        // TikTok publishes no quota to read: its caps (posts per creator a day, users per
        // unaudited app) show only as refusals, which come back rate_limited.
        return null;
      },

      async findPublished({ accessToken }, containerId) {
        // The publish_id names the post: its status says whether it became one.
        const post = await postState(accessToken, containerId);
        return post.state === 'published' ? publishedPost(accessToken, post.publicId, post.publishId) : null;
      },
    },
  });
}

export const tiktokPlatform: PlatformDefinition & { platform: 'tiktok' } = {
  platform: 'tiktok',
  label: 'TikTok',
  grantsPages: false,
  // Comments and insights need TikTok's API for Business, which ordinary apps lack.
  comments: null,
  insights: null,
  publishing: {
    kinds: ['video'],
    // TikTok publishes by itself once it has pulled and processed the video.
    containerPublishes: true,
    imageTypes: [],
    options: TIKTOK_OPTIONS,
  },
  create: tiktokAdapter,
};
