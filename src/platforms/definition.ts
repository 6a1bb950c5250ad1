/**
 * What a platform is and what the service can do there, known without credentials (Nango's
 * provider definitions are the model: platform facts as data). Each adapter's file declares its
 * platform's definition beside the code; the registry is the list of them.
 */
import type { TObject } from 'typebox';
import type { AdapterOptions } from './http.ts';
import type { Platform } from './names.ts';
import type { AfterPublishRule, PlatformAdapter } from './types.ts';

/** What a post can be, in the service's terms. */
export type PublishKind = 'text' | 'image' | 'video' | 'carousel';

/** The platform's rules on comments, where the service can read, answer and hide them. */
export interface CommentRules {
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

export interface PublishingRules {
  /** The kinds of post that can be published (a carousel: several media in one post). */
  kinds: readonly PublishKind[];
  /**
   * Creating the publishing container is the publication itself: the platform publishes
   * what it received once processed (TikTok's video/init), so a creation is never repeated
   * on a doubt.
   */
  containerPublishes: boolean;
  /** The image formats (MIME types) the platform takes; another one is converted to JPEG for it. */
  imageTypes: readonly string[];
  /**
   * The options a post takes for this platform, in the API's terms (`platforms.<platform>`
   * beside its `text`): the request schema, the OpenAPI document and what the adapter reads.
   */
  options: TObject;
  /** A step after publishing that the options may ask for (the adapter's `publishing.afterPublish` runs it). */
  afterPublish?: AfterPublishRule;
}

export interface PlatformDefinition {
  readonly platform: Platform;
  /** As people see it (the connect page's buttons, messages). */
  readonly label: string;
  /** One login grants several pages, each becoming an account (the adapter has `pages`). */
  readonly grantsPages: boolean;
  /** Null: the service offers no comments there (the adapter has no `comments`). */
  readonly comments: CommentRules | null;
  /** Null: the service offers no insights there (the adapter has no `insights`). */
  readonly insights: InsightMetrics | null;
  readonly publishing: PublishingRules;
  /** The adapter, with the app's credentials on the platform. */
  create(options: AdapterOptions, now: () => Date): PlatformAdapter;
}
