/** Bluesky (the AT Protocol, any PDS) as data. Facts: docs/platforms.md, "Bluesky". */
import { Type } from 'typebox';
import { countText } from '../../client/text-length.ts';
import { type MetricDescriptions, metricsOf, type PlatformDefinition, type TextCounting } from '../definition.ts';

/** "app.bsky.feed.post": `text` has at most 300 graphemes. */
const GRAPHEMES: TextCounting = {
  rule: 'graphemes',
  description: 'Graphemes, what a reader sees as one character: 😀, é and 👍🏽 (a thumb and a skin tone) count 1 each',
  length: (text) => countText(text, 'graphemes'),
};

/** "app.bsky.embed.images": at most 4 images, each blob at most 2,000,000 bytes ("May be up to 2 MB, formerly limited to 1 MB"); alt text required (may be empty). */
export const BLUESKY_MAX_IMAGES = 4;
export const BLUESKY_MAX_IMAGE_BYTES = 2_000_000;
/** "app.bsky.embed.video": one video, its blob mp4 of at most 300,000,000 bytes ("May be up to 300mb, formerly limited to 100mb"); alt text at most 1,000 graphemes. */
export const BLUESKY_MAX_VIDEO_BYTES = 300_000_000;
export const BLUESKY_MAX_VIDEO_ALT_GRAPHEMES = 1000;
/** "You can now post videos up to 10 minutes long" (Bluesky's announcement of 2026-08-25; the lexicons state no length). */
export const BLUESKY_MAX_VIDEO_SECONDS = 600;
/** The posts a thread holds after the first: the service's own bound (Bluesky states none), 25 posts in all. */
export const BLUESKY_THREAD_MAX_FOLLOWING = 24;

const ALT_TEXTS = Type.Array(Type.String({ maxLength: 2000 }), {
  minItems: 1,
  maxItems: BLUESKY_MAX_IMAGES,
  title: 'Alt texts',
  description:
    "Each medium's alt text, in the order of its `media_ids` (app.bsky.embed.images `alt`, app.bsky.embed.video `alt` of at most 1,000 graphemes); a medium without one has an empty alt text.",
});

const TEXT_DESCRIPTION = "At most 300 graphemes (app.bsky.feed.post `text`), as the first post's.";

/** A post's options for Bluesky (`platforms.bluesky`). */
export const BLUESKY_OPTIONS = Type.Object(
  {
    languages: Type.Optional(
      Type.Array(Type.String({ pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$' }), {
        minItems: 1,
        maxItems: 3,
        title: 'Languages',
        description:
          "The post's languages as BCP 47 tags (app.bsky.feed.post `langs`, at most 3), such as `en` or `pt-BR`; a thread's posts all take them.",
      }),
    ),
    alt_texts: Type.Optional(ALT_TEXTS),
    link_card: Type.Optional(
      Type.Object(
        {
          uri: Type.String({
            format: 'uri',
            maxLength: 2000,
            title: 'Link',
            description: 'The page the card opens (http or https).',
          }),
          title: Type.String({ maxLength: 300, title: 'Title', description: "The card's title." }),
          description: Type.String({
            maxLength: 1000,
            title: 'Description',
            description: "The card's text under its title.",
          }),
          media_ids: Type.Optional(
            Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
              minItems: 1,
              maxItems: 1,
              title: 'Picture',
              description:
                "The card's picture (app.bsky.embed.external `thumb`): one image of the media library, within 2,000,000 bytes.",
            }),
          ),
        },
        {
          additionalProperties: false,
          title: 'Link card',
          description:
            'A card for a link under the text (app.bsky.embed.external), with a picture if one is given; a post with images or a video takes none.',
        },
      ),
    ),
    thread: Type.Optional(
      Type.Array(
        Type.Object(
          {
            text: Type.String({ minLength: 1, title: 'Text', description: TEXT_DESCRIPTION }),
            media_ids: Type.Optional(
              Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
                minItems: 1,
                maxItems: BLUESKY_MAX_IMAGES,
                title: 'Images',
                description: "This post's own images, ids of the media library: 1 to 4, each within 2,000,000 bytes.",
              }),
            ),
            alt_texts: Type.Optional(ALT_TEXTS),
          },
          { additionalProperties: false, title: 'Thread post' },
        ),
        {
          minItems: 1,
          maxItems: BLUESKY_THREAD_MAX_FOLLOWING,
          title: 'Thread',
          description:
            "The posts after the first, published in order, each a reply to the one before it (app.bsky.feed.post `reply`, its root the first post), so the post is a thread of 2 to 25. The post is published when the whole thread is; its link is the first post's.",
        },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * The service's metric names Bluesky answers, and what each counts (app.bsky.actor.getProfile's
 * `followersCount`; a post view's counts). Bluesky counts no views, so none is offered.
 */
const METRIC_DESCRIPTIONS = {
  account: {
    followers_count:
      "Accounts following the account, as it is now (only today has a figure; earlier days are the service's own daily readings).",
  },
  post: {
    likes: 'Likes of the post (likeCount).',
    reposts: 'Reposts of the post (repostCount).',
    replies: 'Replies to the post (replyCount).',
    quotes: 'Quote posts of the post (quoteCount).',
  },
} satisfies MetricDescriptions;

export const BLUESKY_METRICS = metricsOf(METRIC_DESCRIPTIONS);

export const blueskyDefinition = {
  platform: 'bluesky',
  label: 'Bluesky',
  grantsPages: false,
  signInHint: {
    label: 'Your Bluesky handle',
    placeholder: 'alice.bsky.social',
    description: 'The handle you sign in to Bluesky with, on bsky.social or any other server.',
  },
  // Replies to the account's posts: read, answered, deleted (the account's own), hidden through the
  // root post's threadgate `hiddenReplies`, which may name a reply at any depth. Answering a hidden
  // reply: not confirmed, so not offered.
  comments: { reply: true, hide: true, deleteReply: true, replyToHidden: false, hideReplies: true },
  insights: BLUESKY_METRICS,
  metricDescriptions: METRIC_DESCRIPTIONS,
  // Bluesky counts no views, and an account's interactions only on each post.
  reportFigures: {
    followers: 'followers_count',
    views: [],
    engagement: { account: [], post: ['likes', 'reposts', 'replies', 'quotes'] },
  },
  publishing: {
    // Text, one image, 2 to 4 images (app.bsky.embed.images), or one video (app.bsky.embed.video).
    kinds: ['text', 'image', 'carousel', 'video'],
    // The record's key is chosen first; createRecord, made when publishing, is the publication.
    containerPublishes: false,
    // Only a video is processed (by the video service, before the post names it); the tutorial reads its
    // job every second. Its upload token lasts 30 minutes ("30 minutes is recommended"), past which the
    // service can no longer store the video: no longer is waited.
    processing: { pollSeconds: 2, pollFactor: 1.5, maxPollSeconds: 30, limitSeconds: 1800, itemsOnly: true },
    text: { maxLength: 300, counting: GRAPHEMES },
    carousel: { minItems: 2, maxItems: BLUESKY_MAX_IMAGES },
    videoDurations: [{ in: 'single', minSeconds: 0, maxSeconds: BLUESKY_MAX_VIDEO_SECONDS }],
    // "Blob" limits of the images embed: any image type the PDS accepts; Bluesky's app uploads JPEG, PNG and WebP.
    imageTypes: ['image/jpeg', 'image/png', 'image/webp'],
    options: BLUESKY_OPTIONS,
    requiredOptions: [],
  },
  settings: {},
} satisfies Omit<PlatformDefinition, 'create'>;
