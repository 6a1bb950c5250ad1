/**
 * Every platform the service talks to, and what it can do there, in the service's terms.
 * The one list: callers (settings, routes, the connect page, the sandbox's control API)
 * ask it instead of naming platforms, and the adapters read their metrics and page grants
 * from it.
 */

/** What a post can be, in the service's terms. */
export type PublishKind = 'text' | 'image' | 'video' | 'carousel';

export interface PlatformInfo {
  /** As people see it (the connect page's buttons). */
  label: string;
  /** Its settings are `<prefix>_CLIENT_ID` and `<prefix>_CLIENT_SECRET`. */
  settingsPrefix: string;
  /** What the service can do with comments there (replies on Threads), and the platform's rules on it. */
  comments: {
    read: boolean;
    reply: boolean;
    hide: boolean;
    /** A hidden comment (or one under a hidden comment) can be answered. */
    replyToHidden: boolean;
    /** Replies (comments under a comment) can be hidden, not only top-level comments. */
    hideReplies: boolean;
  };
  /** The service's metric names offered, per kind; none: no insights there. */
  insights: { account: readonly string[]; post: readonly string[] };
  /** The kinds of post that can be published (a carousel: several media in one post). */
  publishing: readonly PublishKind[];
  /**
   * Creating the publishing container is the publication itself: the platform publishes
   * what it received once processed (TikTok's video/init), so a creation is never repeated
   * on a doubt.
   */
  containerPublishes: boolean;
  /** The image formats (MIME types) the platform takes; another one is converted to JPEG for it. */
  imageTypes: readonly string[];
  /** One login grants several pages, each becoming an account. */
  grantsPages: boolean;
}

export const PLATFORM_REGISTRY = {
  instagram: {
    label: 'Instagram',
    settingsPrefix: 'INSTAGRAM',
    // "You cannot reply to hidden comments" (IG Comment Replies reference,
    // https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/replies);
    // `hide` is a field of any IG Comment, replies included (IG Comment reference).
    comments: { read: true, reply: true, hide: true, replyToHidden: false, hideReplies: true },
    insights: {
      // followers_count is a user field read as it is now; the others are insights metrics.
      account: [
        'followers_count',
        'views',
        'reach',
        'accounts_engaged',
        'total_interactions',
        'likes',
        'comments',
        'saves',
        'shares',
      ],
      post: ['views', 'reach', 'likes', 'comments', 'saves', 'shares', 'total_interactions'],
    },
    // No text-only posts: an Instagram post needs an image or a video.
    publishing: ['image', 'video', 'carousel'],
    // "JPEG is the only image format supported" (Instagram's content publishing guide).
    containerPublishes: false,
    imageTypes: ['image/jpeg'],
    grantsPages: false,
  },
  threads: {
    label: 'Threads',
    settingsPrefix: 'THREADS',
    // Hiding: top-level replies only, the nested ones follow their top-level reply
    // (https://developers.facebook.com/docs/threads/reply-management, "Hide Replies"). Threads
    // documents no rule against answering a hidden reply.
    comments: { read: true, reply: true, hide: true, replyToHidden: true, hideReplies: false },
    insights: {
      account: ['followers_count', 'views', 'likes', 'replies', 'reposts', 'quotes', 'clicks'],
      post: ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'],
    },
    publishing: ['text', 'image', 'video', 'carousel'],
    // Threads' media specification: JPEG and PNG.
    containerPublishes: false,
    imageTypes: ['image/jpeg', 'image/png'],
    grantsPages: false,
  },
  tiktok: {
    label: 'TikTok',
    settingsPrefix: 'TIKTOK',
    // Comments and insights need TikTok's API for Business, which ordinary apps lack.
    comments: { read: false, reply: false, hide: false, replyToHidden: false, hideReplies: false },
    insights: { account: [], post: [] },
    publishing: ['video'],
    // TikTok publishes by itself once it has pulled and processed the video.
    containerPublishes: true,
    imageTypes: [],
    grantsPages: false,
  },
  facebook: {
    label: 'Facebook Pages',
    settingsPrefix: 'FACEBOOK',
    // A Comment's `is_hidden` can be set on replies as on top-level comments, which `can_hide`
    // tells per comment; a page may comment on a hidden comment (Graph API Comment reference,
    // https://developers.facebook.com/docs/graph-api/reference/comment). A page's own comments
    // cannot be hidden: the sandbox answers `can_hide: false` for them.
    comments: { read: true, reply: true, hide: true, replyToHidden: true, hideReplies: true },
    // The service offers insights for Instagram and Threads only.
    insights: { account: [], post: [] },
    // No video on pages; several photos make one post.
    publishing: ['text', 'image', 'carousel'],
    // Facebook's photo formats include JPEG and PNG; WebP is converted to be safe.
    containerPublishes: false,
    imageTypes: ['image/jpeg', 'image/png'],
    grantsPages: true,
  },
} as const satisfies Record<string, PlatformInfo>;

export type Platform = keyof typeof PLATFORM_REGISTRY;

/** Every platform, in the registry's order. */
export const PLATFORMS = Object.keys(PLATFORM_REGISTRY) as readonly Platform[];

/** The platforms whose comments the service reads (and is notified of). */
export const COMMENT_PLATFORMS: readonly Platform[] = PLATFORMS.filter((p) => PLATFORM_REGISTRY[p].comments.read);

export function isPlatform(value: string): value is Platform {
  return Object.hasOwn(PLATFORM_REGISTRY, value);
}

export function platformInfo(platform: Platform): PlatformInfo {
  return PLATFORM_REGISTRY[platform];
}
