/**
 * The one interface every platform adapter implements. Nothing outside src/platforms/
 * knows a platform's URLs, field names, scopes or error codes: callers speak in the
 * service's terms (metric names, actions, error kinds) and adapters translate.
 */

import type { Platform } from './names.ts';

export { isPlatform, PLATFORMS, type Platform } from './names.ts';

/** What an account can be asked to do; each needs some scopes on its platform. */
export const PLATFORM_ACTIONS = [
  'read_profile',
  'read_comments',
  /** Have the platform send the account's comment notices (webhooks) to the app. */
  'comment_notices',
  'reply',
  /** Delete a reply the account sent (its own comment) on the platform. */
  'delete_reply',
  'hide',
  'read_insights',
  'publish',
] as const;
export type PlatformAction = (typeof PLATFORM_ACTIONS)[number];

export const PLATFORM_ERROR_KINDS = [
  /** The token ran out (or the platform says so): the account must be reconnected. */
  'token_expired',
  /** The user removed the app or its access on the platform. */
  'access_revoked',
  /** The token lacks a scope the call needs. */
  'permission_missing',
  /** Too many calls: try again after `retryAfterSeconds`. */
  'rate_limited',
  /** The platform or the network failed; the same call may work later. */
  'transient',
  /** The platform refused the request itself (a bad parameter, an unknown object). */
  'invalid_request',
  /** The platform (or its API for ordinary apps) cannot do this at all. */
  'unsupported',
] as const;
export type PlatformErrorKind = (typeof PLATFORM_ERROR_KINDS)[number];

export interface PlatformErrorDetail {
  platform: Platform;
  /** HTTP status of the platform's answer, when there was one. */
  status?: number;
  /** The platform's own error code (e.g. 190, 'access_token_invalid', 'invalid_grant'). */
  code?: string | number;
  subcode?: number;
  /** The platform's own message, kept for the API user. */
  platformMessage?: string;
  /** For rate_limited: how long to wait before calling again. */
  retryAfterSeconds?: number;
  /**
   * For a request refused before any call for breaking the platform's rules (what
   * checkPublish reports, or a rule only known from the platform's answer about the account,
   * such as TikTok's longest video): each problem, in the API's terms.
   */
  problems?: PublishProblem[];
  /**
   * For permission_missing of a call acting for a known action: the scopes that action needs
   * on the platform (ScopePolicy.byAction), which the account evidently does not all hold.
   */
  missingScopes?: string[];
}

/** A published container whose post no documented read of the platform finds: why, in words. */
export interface UnfindablePost {
  readonly unfindable: string;
}

/** Every failure an adapter reports, classified. */
export class PlatformError extends Error {
  override name = 'PlatformError';
  constructor(
    readonly kind: PlatformErrorKind,
    message: string,
    readonly detail: PlatformErrorDetail,
  ) {
    super(message);
  }

  /** A failure the same call may get past later (the platform or the network, a rate limit): worth another try. */
  get passing(): boolean {
    return this.kind === 'transient' || this.kind === 'rate_limited';
  }
}

/** What a token grant or refresh gives. */
export interface TokenSet {
  accessToken: string;
  /** Null for a token that does not expire (a Facebook page token). */
  expiresAt: Date | null;
  refreshToken?: string;
  refreshExpiresAt?: Date | null;
  /** The platform user (or page) the token acts as. */
  platformUserId: string;
  /**
   * Other ids the platform gives the same account, which some of its notices may name
   * (Instagram's app-scoped id); absent: none.
   */
  aliases?: string[];
  /**
   * The scopes granted, as the platform names them; possibly none. Null when this answer
   * does not say (only a refresh may answer so: the grant's scopes stay as they were).
   */
  scopes: string[] | null;
}

/** What a code exchange gives: it always says which scopes the user granted, even none. */
export interface GrantedTokenSet extends TokenSet {
  scopes: string[];
}

/** What a call on behalf of an account needs. */
export interface AccountCredentials {
  platformUserId: string;
  accessToken: string;
}

export interface PlatformProfile {
  id: string;
  username: string | null;
  name: string | null;
  avatarUrl: string | null;
  followersCount: number | null;
}

/**
 * A page the login grants: a Facebook page, with a token of its own that does not expire; or a
 * LinkedIn organization (or the member's own profile), acted on with the login's own token
 * (`accessToken` null), which expires and refreshes as the login's does.
 */
export interface PageGrant {
  id: string;
  name: string;
  avatarUrl: string | null;
  accessToken: string | null;
  /** The Instagram professional account linked to the page, if any. */
  instagramBusinessAccountId: string | null;
}

export interface PlatformComment {
  id: string;
  postId: string;
  /** The comment this one answers, for replies. */
  parentId: string | null;
  authorId: string | null;
  authorUsername: string | null;
  text: string;
  createdAt: Date;
  hidden: boolean;
  /** Written by the account itself (its own replies), not by another person. */
  byAccount: boolean;
  /** A review's star rating, 1 to 5, where the comment is a review (Google Business Profile's); absent: none. */
  rating?: number | null;
  /**
   * When the platform says the comment's words or rating last changed, where it tells (a
   * review's `updateTime`): a stored comment takes the words, author name and rating of a read
   * whose time is later than the one it was stored with. Absent: the stored comment keeps its own.
   */
  editedAt?: Date | null;
}

/** A platform post comments belong to, as far as the platform says. */
export interface PlatformPostSummary {
  id: string;
  /** The post's text (a caption, a message), null when it has none. */
  text: string | null;
  permalink: string | null;
  publishedAt: Date | null;
}

export interface RecentComments {
  /** The recent posts read (newest first), whether or not they have comments. */
  posts: PlatformPostSummary[];
  /** Their comments and replies, newest first. */
  comments: PlatformComment[];
  /**
   * The highest share (0-100) of a rate limit the platform's usage headers reported over the
   * calls made (X-App-Usage call_count/total_time/total_cputime, X-Business-Use-Case-Usage
   * likewise); null when no call carried one.
   */
  usagePercent: number | null;
}

/** One comment a platform webhook reports. */
export interface CommentNotice {
  /** The platform user (Instagram/Threads user id, Facebook page id) whose post was commented on: the account. */
  accountPlatformUserId: string;
  /**
   * byAccount: written by that account itself. createdAt: the comment's own time when the
   * notice carries it (Threads' `timestamp`, a Page's `created_time`), null when it does not
   * (Instagram's): a notice may come up to a day and a half late, after the platform's retries,
   * so its arrival says nothing of the comment's age (commentTimes reads it). hidden: false
   * unless the notice says.
   */
  comment: Omit<PlatformComment, 'createdAt'> & { createdAt: Date | null };
  /** When the platform sent the notice (its `time`), else when it arrived. */
  noticedAt: Date;
  /**
   * The notice names the comment and nothing more (Google's review notifications): its words,
   * author, time and rating are read from the platform (`readComments`) before it is stored.
   */
  named?: true;
}

/** A reply sent, or (Threads) a reply container the platform is still processing: finishReply publishes it later. */
export type ReplyOutcome = { state: 'sent'; id: string } | { state: 'pending'; containerId: string };

/** UTC day, YYYY-MM-DD. */
export type Day = string;

/** Metric values per day: `null` means the platform has no data for that day (not 0). */
export type DailyMetrics = Record<Day, Record<string, number | null>>;

/**
 * Figures read from a platform, with the highest share (0-100) of a rate limit its usage
 * headers reported over the calls made (null: none reported), so a caller can slow down.
 */
export interface InsightsRead<T> {
  figures: T;
  usagePercent: number | null;
}

/** What a medium of a post is: a `document` is a PDF (LinkedIn's document posts). */
export type MediaKind = 'image' | 'video' | 'document';

/**
 * One medium as the platform is asked to publish it. `durationSeconds`: a video's length, when
 * known (the media record reads it on upload); `sizeBytes`: the bytes at `url`, when known
 * (LinkedIn's video upload is announced with it).
 */
export interface RequestMedium {
  type: MediaKind;
  url: string;
  durationSeconds?: number | null;
  sizeBytes?: number | null;
  /** An image's or video's pixels, when known (Bluesky states a post's images' aspect ratio). */
  width?: number | null;
  height?: number | null;
}

export interface PublishRequest {
  text?: string;
  media: RequestMedium[];
  /**
   * The media the options name by id (a `media_ids` list within them: an X thread's later
   * posts), by media id, each as `media` gives the post's own. Absent: the options name none.
   */
  optionMedia?: Readonly<Record<string, RequestMedium>>;
  /** Threads: publish as a reply to this post or reply. */
  replyToId?: string;
  /** The post's options for this platform. */
  options?: PostOptions;
  /**
   * Where the platform publishes the upload by itself at a time (its definition's
   * `publishAhead`): that time, the post's, ISO 8601. Absent: published as soon as processed.
   */
  publishAt?: string;
}

/**
 * A post's options for one platform, in the API's terms: `platforms.<platform>` without its
 * `text`, valid under the platform's `publishing.options` schema (the API checked it before
 * storing the post). Only that platform's adapter reads them.
 */
export type PostOptions = Readonly<Record<string, unknown>>;

/**
 * A problem with a post found without any platform call (for 400 validation_failed before
 * anything is stored). `field` in the API's terms: 'text', 'media_ids',
 * 'platforms.<platform>.<option>'.
 */
export interface PublishProblem {
  field: string;
  message: string;
}

/**
 * What a post's media are, before URLs exist. `contentType`: the medium's type, where known (the
 * media library's `mime_type`), so a rule that differs by type (X's GIF and still image) can be
 * checked before storing.
 */
export interface PublishDraft {
  text?: string;
  media: DraftMedium[];
  options?: PostOptions;
  /**
   * The media the options name by id (a `media_ids` list within them), by media id, as the
   * library knows them; an id the library does not have is absent (refused before the platform's rules).
   */
  optionMedia?: Readonly<Record<string, DraftMedium>>;
}

export interface DraftMedium {
  type: MediaKind;
  durationSeconds?: number | null;
  sizeBytes?: number | null;
  contentType?: string | null;
}

/** What publishContainer is given where its publication is several calls. */
export interface PublishProgress {
  options: PostOptions;
  /**
   * The target's try this run belongs to (its `attempts`): a mark an earlier try left was given
   * up by the owner's new try, while one of this try is a run of it stopped midway.
   */
  attempt: number;
  record(containerId: string): Promise<void>;
}

/** A publishing quota as the platform reports it: `used` of `limit` posts in a moving window. */
export interface PublishingQuota {
  used: number;
  limit: number;
  windowSeconds: number;
}

/**
 * The count of a project's quota units by the platform's day, kept where every process of the
 * service shares it (YouTube's Data API units, per Google project). Handed to the adapters.
 */
export interface ProjectUnits {
  /**
   * Adds `units` to the project's count of `day` if the count then stays within `ceiling` and the
   * platform has not closed the day; answers the count, whether the units were taken, and
   * whether the platform closed the day.
   */
  take(
    platform: Platform,
    project: string,
    day: string,
    units: number,
    ceiling: number,
  ): Promise<{ taken: boolean; used: number; closed: boolean }>;
  /** The platform answered that the project's day is spent: nothing else is tried that day. */
  close(platform: Platform, project: string, day: string): Promise<void>;
}

/** A project's daily upload allowance, counted by the service by the platform's day. */
export interface DailyUploads {
  /** Whose allowance: the app's project (its client id). */
  readonly project: string;
  /** Uploads a day. */
  readonly limit: number;
  /**
   * Where the project's other calls spend units of a daily allowance the service counts too
   * (`ProjectUnits`): the day's units. An upload waits, as for spent uploads, once they are all
   * spent, since its processing is read with them.
   */
  readonly unitLimit?: number;
  /** The platform's day at `at` (YYYY-MM-DD), the count's key. */
  day(at: Date): string;
  /** When the allowance of `at`'s day is renewed. */
  renewsAt(at: Date): Date;
  /** The failure says the platform found the day's quota already spent. */
  spentBy(error: unknown): boolean;
}

/**
 * Where a container stands: still processing, ready to publish, published (`awaiting_permalink`:
 * published, but the platform gives its public link only later, as TikTok gives a public post's
 * id once moderation is done), failed, or expired unpublished.
 */
export type ContainerState = 'in_progress' | 'finished' | 'published' | 'awaiting_permalink' | 'failed' | 'expired';

export interface ContainerStatus {
  state: ContainerState;
  /** Why it failed or expired, in the platform's words; for `in_progress` and `awaiting_permalink`, what it waits for. */
  message?: string;
  /** For `in_progress`: the seconds the platform asks to wait before reading again (X's `check_after_secs`), when it says. */
  checkAfterSeconds?: number;
  /**
   * `in_progress` only: the platform holds the finished upload and publishes it by itself at
   * this time (ISO 8601; a request's `publishAt`), so it is read again then.
   */
  publishesAt?: string;
  /** `published` only: published otherwise than asked (see PublishedPost). */
  warning?: PublishWarning;
}

/** What the service knows now of the post a container is for, given at each read of it. */
export interface ContainerContext {
  /**
   * Where the upload was made to be published at a time (`publishAt`): the post's time now. A
   * platform holding another time (the post was moved) is given this one before it answers.
   */
  publishAt?: string;
  /**
   * The post's media at URLs signed now, asked only when the adapter sends bytes again (a
   * resumed upload): a URL kept in a container's record would end with `MEDIA_URL_TTL_SECONDS`.
   */
  mediaUrls?: () => Promise<readonly string[]>;
}

export interface PublishedPost {
  id: string;
  permalink: string | null;
  /** Published otherwise than asked (YouTube keeping a video private): what differs, for the target and its event. */
  warning?: PublishWarning;
}

export interface PublishWarning {
  /** `privacy_restricted`: the platform shows the post to fewer people than asked. */
  code: 'privacy_restricted';
  message: string;
}

export interface AuthorizeRequest {
  redirectUri: string;
  state: string;
  /** Defaults to every scope the service asks for on this platform. */
  scopes?: readonly string[];
  /**
   * Who is signing in, as they typed it on the connect page, where the platform needs it to know
   * where to send them (a Bluesky handle: its PDS's authorization server); the definition's `signInHint`.
   */
  loginHint?: string;
}

/** What the platform sent back to the redirect URI. */
export type AuthorizeCallback =
  /** `issuer`: the authorization server that says it sent the code (RFC 9207 `iss`), where the platform names it. */
  | { outcome: 'code'; code: string; state: string | null; issuer?: string }
  | { outcome: 'denied'; error: string; description: string | null; state: string | null };

/** A request a platform sends to the service (a callback or webhook), as it arrived. */
export interface PlatformNotice {
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The body exactly as sent: signatures cover these bytes. */
  body: string;
}

export interface ScopePolicy {
  /** Asked for on the authorize page. */
  requested: readonly string[];
  /** Without these the account is useless: a connection lacking one fails. */
  required: readonly string[];
  /** What each action needs; an action missing here is unsupported on the platform. */
  byAction: Partial<Record<PlatformAction, readonly string[]>>;
  /**
   * What a platform's refusal of an action for lack of a permission names as missing, where
   * that is not `byAction`'s list: the scopes the account's record then drops. A platform
   * whose pages disagree on what an action needs names the doubtful scope here, so a refusal
   * never takes away a scope another action is known to work with.
   */
  refusedFor?: Partial<Record<PlatformAction, readonly string[]>>;
  /**
   * Where a platform's accounts of one kind need other scopes than byAction says (a LinkedIn
   * member's own profile beside the organization pages): what each action needs for the account
   * `platformUserId` names, in place of byAction; undefined for an account byAction describes.
   */
  forAccount?: (platformUserId: string) => Partial<Record<PlatformAction, readonly string[]>> | undefined;
}

export interface RefreshPolicy {
  /** Refresh once fewer than this many ms are left before expiry. */
  refreshBeforeExpiryMs: number;
  /** The platform refuses to refresh a token younger than this. */
  minTokenAgeMs: number;
}

/**
 * An adapter: what the service asks of one platform, with the app's credentials there. Every
 * platform connects accounts; what only some can do is an optional capability, absent where the
 * platform cannot (its definition says the same without credentials, `definition.ts`).
 */
export interface PlatformAdapter {
  readonly platform: Platform;
  readonly scopes: ScopePolicy;
  readonly refresh: RefreshPolicy;

  authorizeUrl(request: AuthorizeRequest): string;
  /**
   * Where the permission page is known only once the user's server is found and the request is
   * pushed to it (AT Protocol's pushed authorization request): the page's URL, used in place of
   * `authorizeUrl`, which then refuses. Absent: `authorizeUrl` answers.
   */
  pushAuthorization?(request: AuthorizeRequest): Promise<string>;
  parseCallback(query: Record<string, unknown>): AuthorizeCallback;
  /**
   * The platform users a "user removed the app" notice names (an empty list for other
   * notices); an `invalid_request` PlatformError when it is not signed by the platform,
   * `unsupported` where the platform sends none the service can map to accounts.
   */
  parseDeauthorization(notice: PlatformNotice): string[];
  /**
   * Exchanges the code for a token; long-lived where the platform has both kinds. The
   * answer's scopes are what the user granted, as far as the platform lets the adapter know.
   * `state`: the trip's state as the authorization page sent it back, which a platform asking
   * for PKCE (X) derives the trip's code verifier from. `issuer`: the callback's (AuthorizeCallback).
   */
  exchangeCode(code: string, redirectUri: string, state?: string, issuer?: string): Promise<GrantedTokenSet>;
  refreshToken(tokens: { accessToken: string; refreshToken?: string; platformUserId: string }): Promise<TokenSet>;
  /**
   * Ends the app's access to the account on the platform (a profile being deleted).
   * Resolves once the platform confirmed it, or had nothing to revoke; otherwise a
   * classified PlatformError: `unsupported` where the platform offers no way with the
   * credentials the service holds, `token_expired` when the token can no longer act (a
   * refresh may bring it back first), `transient` and the like for a passing failure.
   */
  revokeAccess(credentials: AccountCredentials): Promise<void>;
  profile(credentials: AccountCredentials): Promise<PlatformProfile>;
  /**
   * Where one login grants several pages (Facebook), each becoming an account: the pages it
   * grants, as far as `granted` (the scopes the login granted) lets it offer them.
   */
  readonly pages?: (credentials: AccountCredentials, granted: readonly string[]) => Promise<PageGrant[]>;
  /** Reading, answering and hiding comments, and the platform's notices of them. */
  readonly comments?: CommentsCapability;
  /** Reading figures, by the service's metric names. */
  readonly insights?: InsightsCapability;
  readonly publishing: PublishingCapability;
  /**
   * Where the platform knows the app by a document the app serves at its own URL (AT Protocol's
   * client metadata): that document, for the connect callback `redirectUri`. Absent: none.
   */
  clientMetadata?(redirectUri: string): Record<string, unknown>;
}

export interface CommentsCapability {
  /** The account's most recent posts and their comments (and replies), newest first. */
  recentComments(credentials: AccountCredentials, options?: { posts?: number }): Promise<RecentComments>;
  /**
   * The comments a platform webhook POST reports. Verifies X-Hub-Signature-256
   * (`sha256=<hex HMAC-SHA256 of the raw body under the app secret>`), timing-safe; a
   * missing or bad signature, or a body that is not JSON: `invalid_request`. Changes of
   * other fields are ignored ([]).
   */
  parseCommentNotices(notice: PlatformNotice): CommentNotice[];
  /**
   * Where checking a notice needs a call (a Pub/Sub push's token, verified with Google's keys,
   * which may have to be fetched first): what parseCommentNotices does, in its place. A bad or
   * missing token: `invalid_request`; the keys out of reach: `transient`.
   */
  receiveNotices?(notice: PlatformNotice): Promise<CommentNotice[]>;
  /**
   * Where notices only name their comments (`CommentNotice.named`): those comments of the
   * account as the platform has them now, with whatever the account answered under them. A
   * comment the platform no longer has is left out.
   */
  readComments?(credentials: AccountCredentials, commentIds: readonly string[]): Promise<PlatformComment[]>;
  /**
   * The platform's own times of these comments of the account, for a notice that carries none,
   * in the fewest calls the platform allows. A comment the platform no longer has (deleted
   * since) is left out.
   */
  commentTimes(credentials: AccountCredentials, commentIds: readonly string[]): Promise<Map<string, Date>>;
  /**
   * Asks the platform to send the account's comment notices to the app: Meta sends an
   * account's notices only once it is subscribed (Instagram `POST /me/subscribed_apps`, a
   * Facebook page `POST /{page-id}/subscribed_apps`), whatever the app subscribed to in its
   * dashboard. Resolves once the platform confirmed it, or at once where no call is needed
   * (Threads: its notices follow the app's dashboard subscription and the user's grant).
   */
  subscribeNotices(credentials: AccountCredentials): Promise<void>;
  /** A post's summary (text, permalink, time), for a post first seen through a notice. */
  postSummary(credentials: AccountCredentials, postId: string): Promise<PlatformPostSummary>;
  /**
   * Answers a comment (or, on Threads, a post or reply). Instagram and Facebook: sent at
   * once. Threads: `pending` while its reply container is still processing (no adapter
   * waits in a loop): finishReply publishes it later.
   */
  reply(credentials: AccountCredentials, commentId: string, text: string): Promise<ReplyOutcome>;
  /**
   * Where reply() can answer `pending` (Threads): publishes that reply container once the
   * platform finished processing it (checks its status once: `pending` while IN_PROGRESS;
   * ERROR or EXPIRED: `invalid_request`).
   */
  finishReply?(credentials: AccountCredentials, containerId: string): Promise<ReplyOutcome>;
  /**
   * Deletes a reply the account made (`replyId`, the platform's id reply() answered) under the
   * comment `parentId`, where the platform allows it (CommentRules.deleteReply). Resolves once the
   * platform confirmed it, or when the platform no longer has the reply (deleted before: deleting
   * twice is no error).
   */
  deleteReply?(credentials: AccountCredentials, replyId: string, parentId: string): Promise<void>;
  setHidden(credentials: AccountCredentials, commentId: string, hidden: boolean): Promise<void>;
}

export interface InsightsCapability {
  accountInsights(
    credentials: AccountCredentials,
    days: readonly Day[],
    metrics: readonly string[],
  ): Promise<InsightsRead<DailyMetrics>>;
  postInsights(
    credentials: AccountCredentials,
    postId: string,
    metrics: readonly string[],
  ): Promise<InsightsRead<Record<string, number | null>>>;
}

export interface PublishingCapability {
  /**
   * Every rule of the platform the post breaks (none: []), found without any call: text
   * length, media count and kinds, the options' values. For 400 validation_failed before
   * anything is stored.
   */
  checkPublish(draft: PublishDraft): PublishProblem[];
  /**
   * The account's publishing quota now, or null where the platform has none to read
   * (TikTok, Facebook): Instagram's content_publishing_limit, Threads' threads_publishing_limit.
   */
  publishingQuota(credentials: AccountCredentials): Promise<PublishingQuota | null>;
  /**
   * Where uploads spend a daily allowance of the app's project rather than the account's, which
   * the platform gives no way to read (YouTube's videos.insert, per Google project): the service
   * counts its own uploads against it. Absent: none.
   */
  readonly dailyUploads?: DailyUploads;
  /**
   * Where a carousel's items are containers the platform processes before the carousel's own
   * may be made (Instagram, Threads), or a post's media is uploaded and processed before the
   * post names it (LinkedIn): makes those items of a request, in order. Each is polled with
   * `containerStatus` until it is finished; `createContainer` is then given them. Null for a
   * request that has none; absent where no platform item is made first.
   */
  createCarouselItems?(credentials: AccountCredentials, request: PublishRequest): Promise<string[] | null>;
  /** The container of a request; a carousel's names its items' finished containers (`itemContainerIds`). */
  createContainer(
    credentials: AccountCredentials,
    request: PublishRequest,
    itemContainerIds?: readonly string[],
  ): Promise<{ containerId: string }>;
  /**
   * Where creating the container publishes and the platform takes no idempotency key: the
   * container of the post a creation from `request` (and its items) made, with the post's id, if the platform shows
   * that post among the account's made since `since` (a creation whose answer was lost, or whose
   * run stopped during the call). Null when it shows none, which proves nothing (a post may take a
   * moment to show), so the caller never creates it again on that answer. Absent where the
   * platform offers no read that tells.
   */
  findCreated?(
    credentials: AccountCredentials,
    request: PublishRequest,
    itemContainerIds: readonly string[],
    since: Date,
  ): Promise<{ containerId: string; postId: string } | null>;
  /** `expected`: what the post is now, where a container is kept in step with it (ContainerContext). */
  containerStatus(
    credentials: AccountCredentials,
    containerId: string,
    expected?: ContainerContext,
  ): Promise<ContainerStatus>;
  /**
   * `progress`: where publishing is several calls (an X thread's posts), the post's options, and
   * where the container id is recorded after each call, so that a resumed publish goes on from
   * the next call rather than repeating one.
   */
  publishContainer(
    credentials: AccountCredentials,
    containerId: string,
    progress?: PublishProgress,
  ): Promise<PublishedPost>;
  /**
   * After a crash between the platform's answer and our commit: the post a container
   * already published became, or null if it was not published. Where the platform links
   * no container to its post, the adapter finds it among the account's recent posts (see
   * each adapter for how, and its limits); where the platform documents no read that lists
   * such a post, it says so (`UnfindablePost`) rather than guess.
   */
  findPublished(credentials: AccountCredentials, containerId: string): Promise<PublishedPost | UnfindablePost | null>;
  /** What the platform does after a publication when a post's options ask for it; absent: nothing. */
  readonly afterPublish?: AfterPublishStep;
  /**
   * The values an option takes for one account, where they are the account's own on the platform
   * (Pinterest's boards), by the option's name, as the definition's `listedOptions` names them.
   */
  readonly optionValues?: Readonly<Record<string, (credentials: AccountCredentials) => Promise<OptionValueList>>>;
  /**
   * Where uploads are published ahead (the definition's `publishAhead`): makes sure a
   * container made with a `publishAt` is never published, its post cancelled before its time
   * (YouTube: videos.delete). Repeatable: a container already withdrawn answers `withdrawn`
   * again. `published`: the platform published it first (its time came), which stands.
   * `incomplete`: the upload never became a post yet (an unfinished session), nothing to remove.
   */
  withdraw?(credentials: AccountCredentials, containerId: string): Promise<WithdrawOutcome>;
}

/** A value an option takes for an account: what a post sets (`value`) and what a person reads (`label`). */
export interface OptionValue {
  value: string;
  label: string;
}

/** An account's values of an option, as read from its platform. */
export interface OptionValueList {
  values: OptionValue[];
  /**
   * False when the platform had more than the adapter reads (Pinterest: 1,000 boards): a value
   * not among `values` may still be the account's.
   */
  complete: boolean;
}

export type WithdrawOutcome =
  | { outcome: 'withdrawn' }
  | { outcome: 'incomplete' }
  | { outcome: 'published'; post: PublishedPost };

/**
 * A step a platform runs after publishing when the post's options ask for it (Instagram's first
 * comment), as its definition declares it (`action`, `asked`). Publishing runs it once the post
 * is on the platform, at most once (an interrupted run is not repeated: it could act twice), and
 * its failure leaves the post published.
 */
export interface AfterPublishRule {
  /** The action whose scopes it needs, as the account's grant names them. */
  readonly action: PlatformAction;
  /** Whether a post's options ask for it. */
  asked(options: PostOptions): boolean;
}

export interface AfterPublishStep extends AfterPublishRule {
  /** Runs it on the published post `postId`; the id of what it made there. */
  run(credentials: AccountCredentials, postId: string, options: PostOptions): Promise<{ id: string }>;
}

/**
 * What `action` needs of the account `platformUserId` names (ScopePolicy.forAccount, else
 * byAction); undefined when the platform cannot do it for that account.
 */
export function scopesFor(
  adapter: Pick<PlatformAdapter, 'scopes'>,
  action: PlatformAction,
  platformUserId?: string,
): readonly string[] | undefined {
  const own = platformUserId === undefined ? undefined : adapter.scopes.forAccount?.(platformUserId);
  return (own ?? adapter.scopes.byAction)[action];
}

/**
 * The scopes `action` needs that `granted` lacks (empty when none), or null when the platform
 * cannot do it; for the account `platformUserId` names where the platform's accounts differ.
 */
export function missingScopes(
  adapter: Pick<PlatformAdapter, 'scopes'>,
  action: PlatformAction,
  granted: readonly string[],
  platformUserId?: string,
): string[] | null {
  const needed = scopesFor(adapter, action, platformUserId);
  if (needed === undefined) return null;
  return needed.filter((scope) => !granted.includes(scope));
}
