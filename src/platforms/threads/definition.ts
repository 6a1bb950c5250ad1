/** Threads as data. Facts: docs/platforms.md, "Threads". */
import { Type } from 'typebox';
import { type MetricDescriptions, metricsOf, type PlatformDefinition, platformSetting } from '../definition.ts';
import { graphVersionSetting, metaAppSecretSetting } from '../meta/settings.ts';
import { THREADS_COUNTING, THREADS_MAX_TEXT } from './text.ts';

/** Threads' video specification: at most 5 minutes. */
const VIDEO_SECONDS = { minSeconds: 0, maxSeconds: 300 };
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
        title: 'Who may reply',
        description: 'Who may reply (Threads `reply_control`); default `everyone`.',
      }),
    ),
    topic_tag: Type.Optional(
      Type.String({
        title: 'Topic tag',
        minLength: 1,
        maxLength: MAX_TOPIC_TAG,
        description: 'A topic tag (Threads `topic_tag`).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The service's metric names Threads answers, and what each counts (https://developers.facebook.com/docs/threads/insights). */
const METRIC_DESCRIPTIONS = {
  account: {
    followers_count: 'Followers of the profile, as it is now (only today has a figure).',
    views: 'Views of the profile, not of its posts.',
    likes: "Likes on the account's posts.",
    replies: "Replies to the account's posts.",
    reposts: "Times the account's posts were reposted.",
    quotes: "Times the account's posts were quoted.",
    clicks: "Clicks on links in the account's posts.",
  },
  post: {
    views: 'Times the post was played or displayed.',
    likes: 'Likes on the post.',
    replies: 'Replies to the post: all of them under a top-level post, the direct ones under a reply.',
    reposts: 'Times the post was reposted.',
    quotes: 'Times the post was quoted.',
    shares: 'Times the post was shared.',
  },
} satisfies MetricDescriptions;

export const THREADS_METRICS = metricsOf(METRIC_DESCRIPTIONS);

export const threadsDefinition = {
  platform: 'threads',
  label: 'Threads',
  grantsPages: false,
  // Hiding: top-level replies only, the nested ones follow their top-level reply
  // (https://developers.facebook.com/docs/threads/reply-management, "Hide Replies"). Threads
  // documents no rule against answering a hidden reply.
  comments: { reply: true, hide: true, deleteReply: false, replyToHidden: true, hideReplies: false },
  insights: THREADS_METRICS,
  metricDescriptions: METRIC_DESCRIPTIONS,
  // Clicks are on links, not interactions with the post.
  reportFigures: {
    followers: 'followers_count',
    views: ['views'],
    engagement: {
      account: ['likes', 'replies', 'reposts', 'quotes'],
      post: ['likes', 'replies', 'reposts', 'quotes', 'shares'],
    },
  },
  publishing: {
    kinds: ['text', 'image', 'video', 'carousel'],
    containerPublishes: false,
    // "We recommend querying a container's status once per minute, for no more than 5 minutes"
    // (Threads API Troubleshooting, "Publishing Does Not Return a Media ID":
    // https://developers.facebook.com/docs/threads/troubleshooting).
    processing: { pollSeconds: 60, pollFactor: 1, maxPollSeconds: 60, limitSeconds: 300 },
    // A reply's text is held to the same.
    text: { maxLength: THREADS_MAX_TEXT, counting: THREADS_COUNTING },
    // https://developers.facebook.com/docs/threads/posts#carousel-posts: 2 to 20 images and videos.
    carousel: { minItems: 2, maxItems: 20 },
    videoDurations: [
      { in: 'single', ...VIDEO_SECONDS },
      { in: 'carousel', ...VIDEO_SECONDS },
    ],
    // Threads' media specification: JPEG and PNG.
    imageTypes: ['image/jpeg', 'image/png'],
    options: THREADS_OPTIONS,
    requiredOptions: [],
  },
  settings: {
    testerToken: platformSetting(
      'THREADS_TESTER_TOKEN',
      Type.String({ minLength: 1, maxLength: 2000, pattern: '^\\S+$' }),
      "The long-lived user token of a tester of the Threads app: Threads' debug_token, which tells the permissions a user granted, answers only to a tester's token. The operator renews it.",
    ),
    // v1.0 is the only version Threads' pages name (graph.threads.net/v1.0).
    graphVersion: graphVersionSetting('THREADS_GRAPH_VERSION', 'the Threads API (graph.threads.net)', 'v1.0'),
    metaAppSecret: metaAppSecretSetting('THREADS_META_APP_SECRET', 'Threads'),
  },
} satisfies Omit<PlatformDefinition, 'create'>;
