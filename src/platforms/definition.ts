/**
 * What a platform is and what the service can do there, known without credentials (Nango's
 * provider definitions are the model: platform facts as data). Each platform's folder declares
 * its definition (`<platform>/definition.ts`); the registry is the list of them. Its adapter's
 * checkPublish reads the same values it states, so what a definition says is what the API enforces.
 */
import type { TObject, TString } from 'typebox';
import type { AdapterOptions } from './http.ts';
import type { Platform } from './names.ts';
import type { AfterPublishRule, PlatformAdapter, PostOptions } from './types.ts';

/** What a post can be, in the service's terms. */
export type PublishKind = 'text' | 'image' | 'video' | 'carousel' | 'document';

/** The platform's rules on comments, where the service can read, answer and hide them. */
export interface CommentRules {
  /** The account can answer comments on its posts through the platform's API. */
  reply: boolean;
  /** The account can hide (and unhide) comments on its posts through the platform's API. */
  hide: boolean;
  /** The account can delete a reply it sent (its own comment) through the platform's API. */
  deleteReply: boolean;
  /** A hidden comment (or one under a hidden comment) can be answered. */
  replyToHidden: boolean;
  /** Replies (comments under a comment) can be hidden, not only top-level comments. */
  hideReplies: boolean;
}

/** The service's metric names offered, per kind. */
export interface InsightMetrics {
  account: readonly string[];
  post: readonly string[];
}

/**
 * What each metric counts on the platform, in a sentence, by the service's metric name, in the
 * order the platform offers them: the same name can mean different things on two platforms
 * (Threads' account `views` are views of the profile, Instagram's views of the content).
 */
export interface MetricDescriptions {
  readonly account: Readonly<Record<string, string>>;
  readonly post: Readonly<Record<string, string>>;
}

/**
 * Which of a platform's metrics make a report's headline figures (`GET
 * /v1/profiles/{id}/report`): the service's names, each figure the sum of its metrics (a day's
 * sum is null only when every one of them is). An empty list: the platform offers no such figure.
 */
export interface ReportFigures {
  /** The account's follower count, as a count (never summed over days); null: none offered. */
  readonly followers: string | null;
  /** The account's views (or impressions) a day. */
  readonly views: readonly string[];
  /** The platform's interactions with the account's content a day, and with one post over its life. */
  readonly engagement: { readonly account: readonly string[]; readonly post: readonly string[] };
}

/** The metric names offered, as their descriptions list them. */
export function metricsOf(described: MetricDescriptions): InsightMetrics {
  return { account: Object.keys(described.account), post: Object.keys(described.post) };
}

/** How a platform counts a text's length: the rule by name and in words, and the count itself. */
export interface TextCounting {
  /** `code_points`, `utf16_code_units`, or a rule of the platform's own named for it. */
  readonly rule: string;
  readonly description: string;
  length(text: string): number;
}

/** What a post's text may be on the platform. */
export interface TextRules {
  /** The longest text, as `counting` counts it. */
  readonly maxLength: number;
  readonly counting: TextCounting;
  /** The most hashtags (`#tag`) a text may hold; absent: no such limit. */
  readonly maxHashtags?: number;
  /** The most accounts (`@name`) a text may mention; absent: no such limit. */
  readonly maxMentions?: number;
}

/** How many images and videos one carousel post holds. */
export interface CarouselRules {
  readonly minItems: number;
  /** Null: no limit the service knows of. */
  readonly maxItems: number | null;
}

/** How long a video may last where it goes. */
export interface VideoDuration {
  /** `single`: the post's only medium; `carousel`: one of a carousel's items. */
  readonly in: 'single' | 'carousel';
  /** The post options that choose this rule (Instagram's `type: reel`); absent: any other post. */
  readonly options?: PostOptions;
  readonly minSeconds: number;
  readonly maxSeconds: number;
}

/**
 * How a container the platform is processing is waited for, as the platform's documentation
 * allows: how often its status is read, and for how long. Both count on the service's clock
 * from when the container was made (`post_targets.processing_since`), so a worker's restart
 * changes neither.
 */
export interface ProcessingRules {
  /**
   * The wait after a read that found the container still processing: `pollSeconds` after the
   * first such read, times `pollFactor` after each further one, at most `maxPollSeconds`
   * (Meta's "once per minute": 60, 1, 60). A container is first read 2 s after it was made.
   */
  readonly pollSeconds: number;
  readonly pollFactor: number;
  readonly maxPollSeconds: number;
  /**
   * How long a container may stay in progress after it was made: the first read that finds it
   * still processing once this has passed ends the try with `processing_timeout`, rather than
   * reading on until the container expires.
   */
  readonly limitSeconds: number;
  /**
   * Where a published post's public link comes only later (TikTok gives a public post's id once
   * its moderation is done): how long after the container was made the link is waited for, read
   * as often as processing is. Then the post is taken as published without a permalink. Absent:
   * the platform never answers so.
   */
  readonly permalinkLimitSeconds?: number;
  /**
   * Only the media uploaded before the post are processed (X): the post's container is read as
   * soon as it is made, not first after a wait.
   */
  readonly itemsOnly?: boolean;
}

/** The wait, in milliseconds, after the `polls`-th read (counted from 0) that found a container still processing. */
export function pollWaitMs(rules: ProcessingRules, polls: number): number {
  return Math.min(rules.pollSeconds * rules.pollFactor ** Math.max(0, polls), rules.maxPollSeconds) * 1000;
}

/** An option whose values are each account's own on the platform (`PublishingRules.listedOptions`). */
export interface ListedOption {
  /**
   * What its values are, as the end of a sentence: a value that is not among them is "not one of
   * <values>" ("this account's boards").
   */
  values: string;
}

export interface PublishingRules {
  /** The kinds of post that can be published (a carousel: several media in one post). */
  kinds: readonly PublishKind[];
  /**
   * Creating the publishing container is the publication itself: the platform publishes
   * what it received once processed (TikTok's video/init), so a creation is never repeated
   * on a doubt.
   */
  containerPublishes: boolean;
  /**
   * How its containers' processing is waited for; null where a container is never in
   * progress (Facebook's feed posts have nothing to process), so an answer that one is ends
   * the try with `processing_timeout` at once.
   */
  readonly processing: ProcessingRules | null;
  readonly text: TextRules;
  /** Null where the kinds hold no carousel. */
  readonly carousel: CarouselRules | null;
  /** The lengths of video the service checks before publishing (none: it checks none itself). */
  readonly videoDurations: readonly VideoDuration[];
  /** The image formats (MIME types) the platform takes; another one is converted to JPEG for it. */
  imageTypes: readonly string[];
  /**
   * The options a post takes for this platform, in the API's terms (`platforms.<platform>`
   * beside its `text`): the request schema, the OpenAPI document and what the adapter reads.
   */
  options: TObject;
  /**
   * The options every post for this platform must set (`platforms.<platform>.<name>`), which its
   * publish rules refuse without (400 validation_failed at that field). The schema leaves them optional, since a
   * post names options only for the platforms its accounts are on.
   */
  requiredOptions: readonly string[];
  /**
   * The options whose values are the account's own on the platform (Pinterest's `board_id`), by
   * name: the adapter's `publishing.optionValues` lists them for an account, `GET
   * /v1/accounts/{id}/options/{option}` answers them, and a post naming a value that is not among
   * its account's is refused at that option. Absent: none.
   */
  listedOptions?: Readonly<Record<string, ListedOption>>;
  /** A step after publishing that the options may ask for (the adapter's `publishing.afterPublish` runs it). */
  afterPublish?: AfterPublishRule;
  /**
   * Where the platform publishes an upload by itself at a time it is given (YouTube's
   * `status.publishAt`): a post whose options ask for it starts `leadSeconds` before its time,
   * and its upload is made to be published by the platform at the post's time. Absent: every
   * post starts at its time.
   */
  readonly publishAhead?: PublishAheadRule;
}

export interface PublishAheadRule {
  readonly leadSeconds: number;
  /**
   * The least time between the upload and the post's time: a post started later than that
   * before its time waits for its time and is uploaded then, published at once.
   */
  readonly minimumSeconds: number;
  /** Whether a post's options can be published so (YouTube: only a video to be public). */
  asked(options: PostOptions): boolean;
}

/**
 * A setting only this platform reads, beside its `<PREFIX>_CLIENT_ID` and `_CLIENT_SECRET`:
 * the service reads it from the environment variable `variable`, checks it against `schema`, and
 * keeps it in its settings under the variable's name in camelCase (`THREADS_TESTER_TOKEN`:
 * `threadsTesterToken`).
 */
export interface PlatformSetting<Variable extends string = string> {
  readonly variable: Variable;
  readonly schema: TString;
  readonly description: string;
  /** What the adapter is handed when the variable is unset; absent: nothing. */
  readonly default?: string;
}

/** A setting, its variable's name kept as written (the settings' types are built from it). */
export function platformSetting<Variable extends string>(
  variable: Variable,
  schema: TString,
  description: string,
  defaultValue?: string,
): PlatformSetting<Variable> {
  return { variable, schema, description, ...(defaultValue === undefined ? {} : { default: defaultValue }) };
}

export interface PlatformDefinition {
  readonly platform: Platform;
  /** As people see it (the connect page's buttons, messages). */
  readonly label: string;
  /**
   * What an owner must arrange with the platform beyond an app's id and secret before its API
   * answers (X: a paid plan of the owner's own app), in a sentence; absent: nothing.
   */
  readonly apiAccess?: string;
  /**
   * An owner may bring its own app here (`PUT /v1/platform-apps/{platform}`), which its accounts
   * then connect, refresh and act through. Only where the app's credentials serve the sign-in,
   * the token's refresh and its revocation alone: a platform that signs its notices to one
   * deployment-wide address with the app's secret (Meta's, TikTok's) would need that address per
   * app. Absent: the deployment's app only.
   */
  readonly ownerApps?: true;
  /**
   * What the connect page asks the client before sending them to the platform (a Bluesky handle,
   * which says where their account is), handed to the adapter as `loginHint`; absent: nothing.
   */
  readonly signInHint?: { readonly label: string; readonly placeholder: string; readonly description: string };
  /** One login grants several pages, each becoming an account (the adapter has `pages`). */
  readonly grantsPages: boolean;
  /** Null: the service offers no comments there (the adapter has no `comments`). */
  readonly comments: CommentRules | null;
  /** Null: the service offers no insights there (the adapter has no `insights`). */
  readonly insights: InsightMetrics | null;
  /** What each of `insights`' metrics counts there; null where `insights` is. */
  readonly metricDescriptions: MetricDescriptions | null;
  /** The metrics a profile's report is made of; null where `insights` is. */
  readonly reportFigures: ReportFigures | null;
  readonly publishing: PublishingRules;
  /** The settings only this platform reads, by the name its adapter reads each under (`AdapterOptions.settings`). */
  readonly settings: Readonly<Record<string, PlatformSetting>>;
  /** The adapter, with the app's credentials on the platform. */
  create(options: AdapterOptions, now: () => Date): PlatformAdapter;
}
