/** Instagram (API with Instagram Login, professional accounts) as data. Facts: docs/platforms.md, "Instagram". */
import { Type } from 'typebox';
import { MultiLineText } from '../../http/schemas.ts';
import type { InsightMetrics, PlatformDefinition } from '../definition.ts';
import { optionsOf } from '../publish-checks.ts';
import type { AfterPublishRule } from '../types.ts';

/** The service's metric names Instagram answers; followers_count is a user field read as it is now, the others are insights metrics. */
export const INSTAGRAM_METRICS: InsightMetrics = {
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
};

/*
 * Publishing rules, from the Content Publishing guide
 * (https://developers.facebook.com/docs/instagram-platform/content-publishing) and the
 * IG User Media reference: captions at most 2,200 characters, 30 hashtags and 20 @ tags;
 * a carousel 2 to 10 images and videos; reels 3 s to 15 min; story and carousel videos
 * at most 60 s.
 */
export const MAX_CAPTION = 2_200;
export const MAX_HASHTAGS = 30;
export const MAX_MENTIONS = 20;
export const MAX_CAROUSEL = 10;
export const REEL_SECONDS = { min: 3, max: 900 };
export const SHORT_VIDEO_SECONDS = { min: 3, max: 60 };
export const INSTAGRAM_TYPES = ['feed', 'reel', 'story'] as const;

/** What an Instagram post takes beside its text (`platforms.instagram`). */
export const INSTAGRAM_OPTIONS = Type.Object(
  {
    type: Type.Optional(
      Type.Enum(INSTAGRAM_TYPES, {
        description:
          '`feed` (default): an image, a video (published as a reel, as Instagram does with feed videos) or a carousel of 2 to 10; `reel`: one video; `story`: one image or video.',
      }),
    ),
    first_comment: Type.Optional(
      MultiLineText({
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
  comments: { replyToHidden: false, hideReplies: true },
  insights: INSTAGRAM_METRICS,
  publishing: {
    // No text-only posts: an Instagram post needs an image or a video.
    kinds: ['image', 'video', 'carousel'],
    containerPublishes: false,
    // "JPEG is the only image format supported" (Instagram's content publishing guide).
    imageTypes: ['image/jpeg'],
    options: INSTAGRAM_OPTIONS,
    afterPublish: FIRST_COMMENT,
  },
} satisfies Omit<PlatformDefinition, 'create'>;
