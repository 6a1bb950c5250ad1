/** X (the X API v2, each owner with its own paid app) as data. Facts: docs/platforms.md, "X". */
import { Type } from 'typebox';
import { type MetricDescriptions, metricsOf, type PlatformDefinition } from '../definition.ts';
import { X_WEIGHTED } from './text-length.ts';

/**
 * The posts a thread holds after the first: the service's own bound (X documents none), 25 posts
 * in all. Each post is one call of POST /2/tweets, counted against the owner's plan and its rate
 * limits, and a thread cut short by one of them waits for its reset: a bound keeps one post of
 * the service a few calls, not a hundred.
 */
export const X_THREAD_MAX_FOLLOWING = 24;

const MB = 1024 * 1024;
/** "Media upload" ("Media types & size restrictions"): an image 5 MB, a GIF 15 MB, a video 512 MB. */
export const X_MAX_IMAGE_BYTES = 5 * MB;
export const X_MAX_GIF_BYTES = 15 * MB;
export const X_MAX_VIDEO_BYTES = 512 * MB;

/** A post's options for X (`platforms.x`). */
export const X_OPTIONS = Type.Object(
  {
    poll: Type.Optional(
      Type.Object(
        {
          options: Type.Array(Type.String({ minLength: 1, maxLength: 25 }), {
            minItems: 2,
            maxItems: 4,
            title: 'Choices',
            description: "The poll's 2 to 4 choices, each of 1 to 25 characters.",
          }),
          duration_minutes: Type.Integer({
            minimum: 5,
            maximum: 10_080,
            title: 'Duration (minutes)',
            description: 'How long the poll is open: 5 minutes to 7 days (10,080 minutes).',
          }),
        },
        {
          additionalProperties: false,
          title: 'Poll',
          description: 'A poll on the post (POST /2/tweets poll): a post with a poll takes no media.',
        },
      ),
    ),
    thread: Type.Optional(
      Type.Array(
        Type.Object(
          {
            text: Type.String({
              minLength: 1,
              title: 'Text',
              description: "The post's text: at most 280 of X's weighted count, as the first post's.",
            }),
            media_ids: Type.Optional(
              Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
                minItems: 1,
                maxItems: 4,
                title: 'Media',
                description:
                  "This post's own media, ids of the media library as the post's `media_ids`: 1 to 4 images, or one video or animated GIF alone, with X's rules of the first post's. Uploaded to X before the thread's first post is made.",
              }),
            ),
          },
          { additionalProperties: false, title: 'Thread post' },
        ),
        {
          minItems: 1,
          maxItems: X_THREAD_MAX_FOLLOWING,
          title: 'Thread',
          description:
            "The posts after the first, published in order, each a reply to the one before it (POST /2/tweets reply.in_reply_to_tweet_id), so the post is a thread of 2 to 25. The post is published when the whole thread is; its link is the first post's.",
        },
      ),
    ),
    reply_to: Type.Optional(
      Type.String({
        title: 'Reply to',
        description:
          'The id of an X post to answer: the post is published as a reply to it (POST /2/tweets reply.in_reply_to_tweet_id).',
        pattern: '^[0-9]{1,19}$',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * The service's metric names X answers to a post's owner, and what each counts (a post's
 * public_metrics; the account's public_metrics.followers_count).
 */
const METRIC_DESCRIPTIONS = {
  account: {
    followers_count:
      "Accounts following the account, as it is now (only today has a figure; earlier days are the service's own daily readings).",
  },
  post: {
    views: 'Times the post was seen (impression_count).',
    likes: 'Likes of the post (like_count).',
    replies: 'Replies to the post (reply_count).',
    reposts: 'Reposts of the post (retweet_count).',
    quotes: 'Quote posts of the post (quote_count).',
    bookmarks: 'Bookmarks of the post (bookmark_count).',
  },
} satisfies MetricDescriptions;

export const X_METRICS = metricsOf(METRIC_DESCRIPTIONS);

export const xDefinition = {
  platform: 'x',
  label: 'X',
  apiAccess:
    "X's API is paid: whoever runs this service brings its own X app (X_CLIENT_ID, X_CLIENT_SECRET) on a plan that includes posting, and X caps each plan's monthly use. Each owner may bring its own X app instead, on its own plan and cap.",
  ownerApps: true,
  grantsPages: false,
  // Replies to the account's posts: read, answered, hidden ("Hide replies": the author of the
  // conversation's root post hides replies in it, at any depth). Answering a hidden reply: not
  // confirmed, so not offered.
  comments: { reply: true, hide: true, deleteReply: true, replyToHidden: false, hideReplies: true },
  insights: X_METRICS,
  metricDescriptions: METRIC_DESCRIPTIONS,
  // X gives an account its followers only: its views and interactions are its posts'.
  reportFigures: {
    followers: 'followers_count',
    views: [],
    engagement: { account: [], post: ['likes', 'replies', 'reposts', 'quotes'] },
  },
  publishing: {
    // Text, one image (an animated GIF among them), 2 to 4 images, or one video ("You may attach
    // up to 4 photos, 1 animated GIF or 1 video in a Post").
    kinds: ['text', 'image', 'carousel', 'video'],
    // POST /2/tweets publishes the post as it creates it.
    containerPublishes: true,
    // A post is created published; its video or GIF is processed before it, as an item read with
    // STATUS: the service's own rhythm, never sooner than X's check_after_secs, for at most an hour.
    processing: { pollSeconds: 5, pollFactor: 1.5, maxPollSeconds: 60, limitSeconds: 3600, itemsOnly: true },
    // "Counting characters": 280 of X's weighted length.
    text: { maxLength: 280, counting: X_WEIGHTED },
    // "You can attach up to 4 images" to a post (media.media_ids).
    carousel: { minItems: 2, maxItems: 4 },
    // Best practices: a video lasts 0.5 to 140 seconds.
    videoDurations: [{ in: 'single', minSeconds: 0.5, maxSeconds: 140 }],
    imageTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
    options: X_OPTIONS,
    requiredOptions: [],
  },
  settings: {},
} satisfies Omit<PlatformDefinition, 'create'>;
