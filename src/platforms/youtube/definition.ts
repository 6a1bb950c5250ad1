/** YouTube (the YouTube Data API v3: a Google user's channel) as data. Facts: docs/platforms.md, "YouTube". */
import { Type } from 'typebox';
import { type MetricDescriptions, metricsOf, type PlatformDefinition, platformSetting } from '../definition.ts';
import { UTF8_BYTES } from './description-bytes.ts';

export const YOUTUBE_PRIVACY = ['public', 'unlisted', 'private'] as const;

/** What a YouTube video takes beside its description (the post's text): `platforms.youtube`. */
export const YOUTUBE_OPTIONS = Type.Object(
  {
    title: Type.Optional(
      Type.String({
        title: 'Title',
        description:
          "Required for YouTube: the video's title (`snippet.title`), at most 100 characters, without `<` or `>`.",
      }),
    ),
    tags: Type.Optional(
      Type.Array(Type.String(), {
        title: 'Tags',
        description:
          "The video's tags (`snippet.tags`): at most 500 characters in all, the commas between tags counted, and a tag holding a space counted with the quotes YouTube puts around it. No `<` or `>`.",
      }),
    ),
    category_id: Type.Optional(
      Type.String({
        pattern: '^[0-9]+$',
        title: 'Category',
        description:
          "The video's category id (`snippet.categoryId`, from YouTube's videoCategories list: `22` is People & Blogs). Absent: YouTube's default.",
      }),
    ),
    privacy: Type.Optional(
      Type.Enum(YOUTUBE_PRIVACY, {
        title: 'Privacy',
        description:
          "Who may watch (`status.privacyStatus`): `public` (the default), `unlisted` (whoever has the link) or `private`. A `public` video scheduled for later is uploaded an hour before its time as `private` with YouTube's `status.publishAt` at the post's time, and YouTube makes it public then; an `unlisted` or `private` one is uploaded at its time (YouTube's publishAt only makes a private video public).",
      }),
    ),
    made_for_kids: Type.Optional(
      Type.Boolean({
        title: 'Made for kids',
        description:
          'Required for YouTube: whether the video is made for children (`status.selfDeclaredMadeForKids`), a declaration the creator must make under COPPA; never chosen for them.',
      }),
    ),
    notify_subscribers: Type.Optional(
      Type.Boolean({
        title: 'Notify subscribers',
        description:
          "Whether YouTube tells the channel's subscribers of the new video (videos.insert's `notifySubscribers`). Default true.",
      }),
    ),
  },
  { additionalProperties: false },
);

/** The service's metric names YouTube Analytics answers, and what each counts (reports.query's metrics). */
const METRIC_DESCRIPTIONS = {
  account: {
    followers_count: "The channel's subscribers, as channels.list gives them now (only today has a figure).",
    views: "Views of the channel's videos (views).",
    watch_time_minutes: "Minutes the channel's videos were watched (estimatedMinutesWatched).",
    likes: "Likes of the channel's videos (likes).",
    comments: "Comments on the channel's videos (comments).",
    shares: "Shares of the channel's videos (shares).",
    subscribers_gained: 'Subscribers the channel gained (subscribersGained).',
    subscribers_lost: 'Subscribers the channel lost (subscribersLost).',
  },
  post: {
    views: 'Views of the video over its life (views).',
    watch_time_minutes: 'Minutes the video was watched (estimatedMinutesWatched).',
    likes: 'Likes of the video (likes).',
    comments: 'Comments on the video (comments).',
    shares: 'Shares of the video (shares).',
    subscribers_gained: 'Subscribers gained from the video (subscribersGained).',
    subscribers_lost: 'Subscribers lost from the video (subscribersLost).',
  },
} satisfies MetricDescriptions;

export const YOUTUBE_METRICS = metricsOf(METRIC_DESCRIPTIONS);

export const youtubeDefinition = {
  platform: 'youtube',
  label: 'YouTube',
  // A Google login reaches the channel channels.list(mine=true) answers; each chosen one is an account.
  grantsPages: true,
  // Read by polling, answered under the top-level comment, hidden through moderation (heldForReview).
  comments: { reply: true, hide: true, deleteReply: true, replyToHidden: false, hideReplies: true },
  insights: YOUTUBE_METRICS,
  metricDescriptions: METRIC_DESCRIPTIONS,
  reportFigures: {
    followers: 'followers_count',
    views: ['views'],
    engagement: { account: ['likes', 'comments', 'shares'], post: ['likes', 'comments', 'shares'] },
  },
  publishing: {
    kinds: ['video'],
    // The upload is the publication: once all its bytes arrived, YouTube has the video and
    // publishes it by itself (at once for public and unlisted, as private otherwise).
    containerPublishes: true,
    // YouTube documents no polling rhythm for processingDetails: read after 30 s, then each wait
    // half as long again, at most 10 minutes apart, for at most 6 hours (docs/platforms.md, Open questions).
    processing: { pollSeconds: 30, pollFactor: 1.5, maxPollSeconds: 600, limitSeconds: 6 * 3600 },
    // The post's text is the video's description: "a maximum length of 5000 bytes" (Videos resource).
    text: { maxLength: 5_000, counting: UTF8_BYTES },
    carousel: null,
    // How long a video may be is the channel's own (15 minutes until it is verified, 12 hours after).
    videoDurations: [],
    imageTypes: [],
    options: YOUTUBE_OPTIONS,
    requiredOptions: ['title', 'made_for_kids'],
    // status.publishAt: "If you set a value for this property, you must also set the
    // status.privacyStatus property to private", and YouTube makes the video public at that
    // time; so only a video to be public is uploaded ahead. An hour ahead gives YouTube time to
    // process it; ten minutes at least, so it is never uploaded with a time already gone by.
    publishAhead: {
      leadSeconds: 3600,
      minimumSeconds: 600,
      asked: (options) => (options.privacy ?? 'public') === 'public',
    },
  },
  settings: {
    dailyUploads: platformSetting(
      'YOUTUBE_DAILY_UPLOADS',
      Type.String({ pattern: '^[0-9]{1,7}$' }),
      "The videos the service may upload a day (Pacific Time) for its Google project, all owners together: YouTube's Quota Calculator gives a project 100 videos.insert calls a day. A post past it waits until midnight Pacific Time.",
      '100',
    ),
    dailyQuotaUnits: platformSetting(
      'YOUTUBE_DAILY_QUOTA_UNITS',
      Type.String({ pattern: '^[0-9]{1,9}$' }),
      "The YouTube Data API units the service may spend a day (Pacific Time) for its Google project, all owners together, beside the uploads: YouTube's Quota Calculator gives a project 10,000 units a day (a list call costs 1, a reply, a moderation, a video's update or deletion 50). Past them, calls wait until midnight Pacific Time.",
      '10000',
    ),
    quotaReserveUnits: platformSetting(
      'YOUTUBE_QUOTA_RESERVE_UNITS',
      Type.String({ pattern: '^[0-9]{1,9}$' }),
      "Of YOUTUBE_DAILY_QUOTA_UNITS, the units comment polls and insight reads leave for publishing (a video's processing reads, moving or removing a scheduled video) and for replies and moderation: those reads stop when only these are left and resume at midnight Pacific Time. Less than YOUTUBE_DAILY_QUOTA_UNITS.",
      '1000',
    ),
  },
} satisfies Omit<PlatformDefinition, 'create'>;
