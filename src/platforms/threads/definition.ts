/** Threads as data. Facts: docs/platforms.md, "Threads". */
import { Type } from 'typebox';
import type { InsightMetrics, PlatformDefinition } from '../definition.ts';

/** https://developers.facebook.com/docs/threads/posts#carousel-posts: 2 to 20 images and videos. */
export const MAX_CAROUSEL = 20;
/** Threads' video specification: at most 5 minutes. */
export const VIDEO_SECONDS = { min: 0, max: 300 };
/** https://developers.facebook.com/docs/threads/posts: a topic tag has 1 to 50 characters, no period or ampersand. */
export const MAX_TOPIC_TAG = 50;

export const THREADS_REPLY_CONTROLS = [
  'everyone',
  'accounts_you_follow',
  'mentioned_only',
  'parent_post_author_only',
  'followers_only',
] as const;

/** What a Threads post takes beside its text (`platforms.threads`). */
export const THREADS_OPTIONS = Type.Object(
  {
    reply_control: Type.Optional(
      Type.Enum(THREADS_REPLY_CONTROLS, {
        description: 'Who may reply (Threads `reply_control`); default `everyone`.',
      }),
    ),
    topic_tag: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_TOPIC_TAG, description: 'A topic tag (Threads `topic_tag`).' }),
    ),
  },
  { additionalProperties: false },
);

export const THREADS_METRICS: InsightMetrics = {
  account: ['followers_count', 'views', 'likes', 'replies', 'reposts', 'quotes', 'clicks'],
  post: ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'],
};

export const threadsDefinition = {
  platform: 'threads',
  label: 'Threads',
  grantsPages: false,
  // Hiding: top-level replies only, the nested ones follow their top-level reply
  // (https://developers.facebook.com/docs/threads/reply-management, "Hide Replies"). Threads
  // documents no rule against answering a hidden reply.
  comments: { replyToHidden: true, hideReplies: false },
  insights: THREADS_METRICS,
  publishing: {
    kinds: ['text', 'image', 'video', 'carousel'],
    containerPublishes: false,
    // Threads' media specification: JPEG and PNG.
    imageTypes: ['image/jpeg', 'image/png'],
    options: THREADS_OPTIONS,
  },
} satisfies Omit<PlatformDefinition, 'create'>;
