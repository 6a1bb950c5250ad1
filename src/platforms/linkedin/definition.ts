/**
 * LinkedIn (the Community Management API: organization pages, and the member's own profile) as
 * data. Facts: docs/platforms.md, "LinkedIn".
 */
import { Type } from 'typebox';
import { type MetricDescriptions, metricsOf, type PlatformDefinition } from '../definition.ts';
import { UTF16_CODE_UNITS } from '../text-counting.ts';

/** A post's options for LinkedIn (`platforms.linkedin`) beside its text. */
export const LINKEDIN_OPTIONS = Type.Object(
  {
    document_title: Type.Optional(
      Type.String({
        minLength: 1,
        title: 'Document title',
        description:
          "A document post's title, shown with the document (the Posts API's content.media.title); required when the post's medium is a document, refused otherwise.",
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * The service's metric names LinkedIn answers for an organization page, and what each counts
 * ("Organization Share Statistics": organic activity only, sponsored activity is not counted;
 * "Organization Follower Statistics": the follower count through Network Sizes).
 */
const METRIC_DESCRIPTIONS = {
  account: {
    followers_count: 'Members following the organization page, as it is now (only today has a figure).',
    views: "Impressions of the organization's posts (impressionCount), organic only.",
    clicks: "Clicks on the organization's posts (clickCount), organic only.",
    likes: "Likes of the organization's posts (likeCount), organic only.",
    comments: "Comments on the organization's posts (commentCount), organic only.",
    shares: "Reposts of the organization's posts (shareCount), organic only.",
    engagement:
      "The day's engagement rate of the organization's posts (engagement), a fraction (0.05 is 5%), organic only; a rate, so its total over days is null.",
  },
  post: {
    views: 'Impressions of the post (impressionCount), organic only.',
    clicks: 'Clicks on the post (clickCount), organic only.',
    likes: 'Likes of the post (likeCount), organic only.',
    comments: 'Comments on the post (commentCount), organic only.',
    shares: 'Reposts of the post (shareCount), organic only.',
    engagement: "The post's engagement rate over its lifetime (engagement), a fraction (0.05 is 5%), organic only.",
  },
} satisfies MetricDescriptions;

/** The largest video LinkedIn takes in an organic post: 500 MB (docs/platforms.md, Open questions). */
export const LINKEDIN_MAX_VIDEO_BYTES = 500 * 1024 * 1024;
/** The largest document (a PDF) LinkedIn takes: 100 MB (docs/platforms.md, Open questions). */
export const LINKEDIN_MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;

export const LINKEDIN_METRICS = metricsOf(METRIC_DESCRIPTIONS);

export const linkedinDefinition = {
  platform: 'linkedin',
  label: 'LinkedIn',
  // One member's login reaches their own profile and every organization page they administer;
  // each chosen one is an account.
  grantsPages: true,
  // Comments API: comments are read and answered as the organization; LinkedIn offers no hiding.
  // A member's own posts' comments are not read (r_member_social is for select developers).
  comments: { reply: true, hide: false, deleteReply: true, replyToHidden: false, hideReplies: false },
  insights: LINKEDIN_METRICS,
  metricDescriptions: METRIC_DESCRIPTIONS,
  // LinkedIn's own `engagement` is a rate (clicks included), which does not add up: the counts do.
  reportFigures: {
    followers: 'followers_count',
    views: ['views'],
    engagement: { account: ['likes', 'comments', 'shares'], post: ['likes', 'comments', 'shares'] },
  },
  publishing: {
    kinds: ['text', 'image', 'carousel', 'video', 'document'],
    // Creating the post (POST /rest/posts with lifecycleState PUBLISHED) is the publication.
    containerPublishes: true,
    // A post's media is uploaded first and read until LinkedIn has processed it (the post itself
    // is created PUBLISHED, nothing to wait for). LinkedIn states no interval or bound: every 5 s,
    // doubling to a minute, for at most an hour, the service's own (docs/platforms.md, Open questions).
    processing: { pollSeconds: 5, pollFactor: 2, maxPollSeconds: 60, limitSeconds: 3600 },
    // 3,000 characters: LinkedIn's composer limit, which its API pages do not state; counted as
    // UTF-16 code units of the text as written, before Little Text Format escaping (docs/platforms.md,
    // Open questions).
    text: { maxLength: 3_000, counting: UTF16_CODE_UNITS },
    // MultiImage API: "minimum of 2 images and maximum of 20 images".
    carousel: { minItems: 2, maxItems: 20 },
    // Videos API (the specifications as comparable services quote them; docs/platforms.md, Open
    // questions): 3 seconds to 30 minutes, alone in its post.
    videoDurations: [{ in: 'single', minSeconds: 3, maxSeconds: 1_800 }],
    // Images API: JPG, GIF and PNG.
    imageTypes: ['image/jpeg', 'image/png', 'image/gif'],
    options: LINKEDIN_OPTIONS,
    requiredOptions: [],
  },
  settings: {},
} satisfies Omit<PlatformDefinition, 'create'>;
