/** Instagram (API with Instagram Login, professional accounts) as data. Facts: docs/platforms.md, "Instagram". */
import { Type } from 'typebox';
import { MultiLineText } from '../../http/schemas.ts';
import { type MetricDescriptions, metricsOf, type PlatformDefinition } from '../definition.ts';
import { CURRENT_GRAPH_API_VERSION, graphVersionSetting, metaAppSecretSetting } from '../meta/settings.ts';
import { optionsOf } from '../publish-checks.ts';
import { CODE_POINTS } from '../text-counting.ts';
import type { AfterPublishRule } from '../types.ts';

/**
 * The service's metric names Instagram answers, and what each counts (IG User Insights and IG
 * Media Insights references; docs/platforms.md, "Instagram media insights"). followers_count is a
 * user field read as it is now, the others are insights metrics.
 */
const METRIC_DESCRIPTIONS = {
  account: {
    followers_count: 'Accounts following the account, as it is now (only today has a figure).',
    views: "Times the account's content (posts, stories, reels, videos) was played or displayed.",
    reach: "Distinct accounts that saw the account's content at least once (an estimate).",
    accounts_engaged: "Accounts that interacted with the account's content (likes, saves, comments, shares, replies).",
    total_interactions: "Likes, saves, comments, shares and replies on the account's content, less those undone.",
    likes: "Likes on the account's posts, reels and videos.",
    comments: "Comments on the account's posts, reels, videos and live videos.",
    saves: "Saves of the account's posts, reels and videos.",
    shares: "Shares of the account's posts, stories, reels, videos and live videos.",
  },
  post: {
    views: 'Times the post was played or displayed.',
    reach: 'Distinct accounts that saw the post at least once (an estimate).',
    likes: 'Likes on the post (a story has none).',
    comments: 'Comments on the post (a story has none).',
    saves: "Saves of the post (Instagram's `saved`; a story has none).",
    shares: 'Shares of the post.',
    total_interactions: 'Likes, saves, comments and shares of the post, less those undone.',
  },
} satisfies MetricDescriptions;

export const INSTAGRAM_METRICS = metricsOf(METRIC_DESCRIPTIONS);

/*
 * Publishing rules, from the Content Publishing guide
 * (https://developers.facebook.com/docs/instagram-platform/content-publishing) and the
 * IG User Media reference: captions at most 2,200 characters, 30 hashtags and 20 @ tags;
 * a carousel 2 to 10 images and videos; reels 3 s to 15 min; story and carousel videos
 * at most 60 s.
 */
const MAX_CAPTION = 2_200;
const REEL_SECONDS = { minSeconds: 3, maxSeconds: 900 };
const SHORT_VIDEO_SECONDS = { minSeconds: 3, maxSeconds: 60 };
export const INSTAGRAM_TYPES = ['feed', 'reel', 'story'] as const;

/** What an Instagram post takes beside its text (`platforms.instagram`). */
export const INSTAGRAM_OPTIONS = Type.Object(
  {
    type: Type.Optional(
      Type.Enum(INSTAGRAM_TYPES, {
        title: 'Post type',
        description:
          '`feed` (default): an image, a video (published as a reel, as Instagram does with feed videos) or a carousel of 2 to 10; `reel`: one video; `story`: one image or video.',
      }),
    ),
    first_comment: Type.Optional(
      MultiLineText({
        title: 'First comment',
        minLength: 1,
        maxLength: MAX_CAPTION,
        description:
          'A comment the account writes on its new post right after publishing (needs `instagram_business_manage_comments`; its failure does not fail the post).',
      }),
    ),
  },
  { additionalProperties: false },
);

// The first comment: a comment by the account on its new post, which needs what replying
// needs. Stories take no comments (checkPublish refuses a first comment on one).
export const FIRST_COMMENT = {
  action: 'reply',
  asked: (options) => optionsOf(INSTAGRAM_OPTIONS, options).first_comment !== undefined,
} as const satisfies AfterPublishRule;

export const instagramDefinition = {
  platform: 'instagram',
  label: 'Instagram',
  grantsPages: false,
  // "You cannot reply to hidden comments" (IG Comment Replies reference,
  // https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/replies);
  // `hide` is a field of any IG Comment, replies included (IG Comment reference).
  comments: { reply: true, hide: true, deleteReply: true, replyToHidden: false, hideReplies: true },
  insights: INSTAGRAM_METRICS,
  metricDescriptions: METRIC_DESCRIPTIONS,
  // Views, not reach: reach counts distinct accounts a day, which do not add up over a period.
  reportFigures: {
    followers: 'followers_count',
    views: ['views'],
    engagement: { account: ['total_interactions'], post: ['total_interactions'] },
  },
  publishing: {
    // No text-only posts: an Instagram post needs an image or a video.
    kinds: ['image', 'video', 'carousel'],
    containerPublishes: false,
    // "We recommend querying a container's status once per minute, for no more than 5 minutes"
    // (Content Publishing, Troubleshooting, "Container publishing status":
    // https://developers.facebook.com/docs/instagram-platform/content-publishing).
    processing: { pollSeconds: 60, pollFactor: 1, maxPollSeconds: 60, limitSeconds: 300 },
    // A caption; a first comment is held to its length too.
    text: { maxLength: MAX_CAPTION, counting: CODE_POINTS, maxHashtags: 30, maxMentions: 20 },
    carousel: { minItems: 2, maxItems: 10 },
    // A single video is published as a reel (feed videos are reels since 2023).
    videoDurations: [
      { in: 'single', options: { type: 'reel' }, ...REEL_SECONDS },
      { in: 'single', options: { type: 'story' }, ...SHORT_VIDEO_SECONDS },
      { in: 'single', ...REEL_SECONDS },
      { in: 'carousel', ...SHORT_VIDEO_SECONDS },
    ],
    // "JPEG is the only image format supported" (Instagram's content publishing guide).
    imageTypes: ['image/jpeg'],
    options: INSTAGRAM_OPTIONS,
    requiredOptions: [],
    afterPublish: FIRST_COMMENT,
  },
  settings: {
    graphVersion: graphVersionSetting(
      'INSTAGRAM_GRAPH_VERSION',
      'the Instagram API (graph.instagram.com)',
      CURRENT_GRAPH_API_VERSION,
    ),
    metaAppSecret: metaAppSecretSetting('INSTAGRAM_META_APP_SECRET', 'Instagram'),
  },
} satisfies Omit<PlatformDefinition, 'create'>;
