/** Pinterest (the API v5: pins on the user's boards) as data. Facts: docs/platforms.md, "Pinterest". */
import { Type } from 'typebox';
import { type MetricDescriptions, metricsOf, type PlatformDefinition } from '../definition.ts';
import { CODE_POINTS } from '../text-counting.ts';

const MB = 1024 * 1024;
/** "Pinterest product specs": a standard Pin's image at most 10 MB, a video at most 2 GB. */
export const PINTEREST_MAX_IMAGE_BYTES = 10 * MB;
export const PINTEREST_MAX_VIDEO_BYTES = 2048 * MB;

/** A post's options for Pinterest (`platforms.pinterest`), with Create Pin's limits. */
export const PINTEREST_OPTIONS = Type.Object(
  {
    // Required (requiredOptions): optional here, as a post names options only for its accounts' platforms.
    board_id: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,30}$',
        title: 'Board',
        description:
          "The board the pin is saved to: the id of one of the account's boards on Pinterest (GET /v1/accounts/{id}/options/board_id lists them), checked against them when the post is created or changed.",
      }),
    ),
    title: Type.Optional(
      Type.String({ maxLength: 100, title: 'Title', description: "The pin's title: at most 100 characters." }),
    ),
    link: Type.Optional(
      Type.String({
        maxLength: 2048,
        pattern: '^https?://[^\\s]+$',
        title: 'Link',
        description: 'Where the pin leads: an http(s) URL of at most 2,048 characters.',
      }),
    ),
    alt_text: Type.Optional(
      Type.String({
        maxLength: 500,
        title: 'Alt text',
        description: "The pin's image described for people who cannot see it: at most 500 characters.",
      }),
    ),
    cover_frame_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 86_400,
        title: 'Cover frame',
        description:
          "A video pin's cover: the frame at this second of the video (Create Pin's cover_image_key_frame_time; past the video's end, its last frame). Without it Pinterest chooses.",
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * The service's metric names Pinterest answers, and what each counts there ("Get user account
 * analytics" and "Get Pin analytics" metric types; the account's follower_count).
 */
const METRIC_DESCRIPTIONS = {
  account: {
    followers_count:
      "Accounts following the account, as it is now (only today has a figure; earlier days are the service's own daily readings).",
    views: "Times the account's pins were seen on screen (IMPRESSION).",
    saves: "Times people saved the account's pins to a board (SAVE).",
    pin_clicks: "Clicks on the account's pins, to see them closer or to their link (PIN_CLICK).",
    outbound_clicks: "Clicks from the account's pins to their link, off Pinterest (OUTBOUND_CLICK).",
    engagement: "Actions on the account's pins: saves, clicks and other interactions, a count (ENGAGEMENT).",
  },
  post: {
    views: 'Times the pin was seen on screen, over the last 90 days (IMPRESSION).',
    saves: 'Times people saved the pin to a board, over the last 90 days (SAVE).',
    pin_clicks: 'Clicks on the pin, over the last 90 days (PIN_CLICK).',
    outbound_clicks: 'Clicks from the pin to its link, over the last 90 days (OUTBOUND_CLICK).',
  },
} satisfies MetricDescriptions;

export const PINTEREST_METRICS = metricsOf(METRIC_DESCRIPTIONS);

export const pinterestDefinition = {
  platform: 'pinterest',
  label: 'Pinterest',
  grantsPages: false,
  // Pinterest's API offers no comments.
  comments: null,
  insights: PINTEREST_METRICS,
  metricDescriptions: METRIC_DESCRIPTIONS,
  // A pin's saves and clicks are what Pinterest's account `engagement` counts.
  reportFigures: {
    followers: 'followers_count',
    views: ['views'],
    engagement: { account: ['engagement'], post: ['saves', 'pin_clicks', 'outbound_clicks'] },
  },
  publishing: {
    // A pin is an image, 2 to 5 images (multiple_image_urls), or a video (video_id); never text alone.
    kinds: ['image', 'carousel', 'video'],
    // POST /v5/pins makes the pin on its board as it answers.
    containerPublishes: true,
    // A video is uploaded (POST /v5/media) and read until `succeeded` before the pin names it;
    // Pinterest states no rhythm or bound: the service's own, 5 s growing by half to a minute, an hour.
    processing: { pollSeconds: 5, pollFactor: 1.5, maxPollSeconds: 60, limitSeconds: 3600, itemsOnly: true },
    // Create Pin: a description of at most 800 characters (a JSON schema maxLength counts code points).
    text: { maxLength: 800, counting: CODE_POINTS },
    // multiple_image_urls: "minItems": 2, "maxItems": 5.
    carousel: { minItems: 2, maxItems: 5 },
    // "Pinterest product specs": a video of 4 seconds to 15 minutes.
    videoDurations: [{ in: 'single', minSeconds: 4, maxSeconds: 900 }],
    // Image Pins: PNG or JPEG (Create Pin's ContentType).
    imageTypes: ['image/jpeg', 'image/png'],
    options: PINTEREST_OPTIONS,
    requiredOptions: ['board_id'],
    // The account's boards (GET /v5/boards).
    listedOptions: { board_id: { values: "this account's boards" } },
  },
  settings: {},
} satisfies Omit<PlatformDefinition, 'create'>;
