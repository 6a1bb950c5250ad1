/** TikTok (Login Kit v2, the Content Posting API) as data. Facts: docs/platforms.md, "TikTok". */
import { Type } from 'typebox';
import type { PlatformDefinition } from '../definition.ts';
import { UTF16_CODE_UNITS } from '../text-counting.ts';

/** "Only me": the privacy level of a post nobody else sees. */
export const PRIVATE_PRIVACY = 'SELF_ONLY';

export const TIKTOK_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;

/**
 * What a TikTok post takes beside its text (`platforms.tiktok`): the post settings TikTok
 * requires the user to choose (never picked for them), and its commercial content disclosure.
 */
export const TIKTOK_OPTIONS = Type.Object(
  {
    privacy_level: Type.Optional(
      Type.Enum(TIKTOK_PRIVACY_LEVELS, {
        title: 'Privacy level',
        description:
          'Required for TikTok: who may watch, chosen by the creator among the options TikTok offers them (`creator_info`); checked against those when publishing. A private account is offered `FOLLOWER_OF_CREATOR`, `MUTUAL_FOLLOW_FRIENDS` and `SELF_ONLY`, a public one `PUBLIC_TO_EVERYONE`, `MUTUAL_FOLLOW_FRIENDS` and `SELF_ONLY`. An app TikTok has not audited may post only `SELF_ONLY`, and only to private accounts.',
      }),
    ),
    disable_comment: Type.Optional(Type.Boolean({ title: 'Turn off comments' })),
    disable_duet: Type.Optional(Type.Boolean({ title: 'Turn off duets' })),
    disable_stitch: Type.Optional(Type.Boolean({ title: 'Turn off stitches' })),
    brand_content_toggle: Type.Optional(
      Type.Boolean({
        title: 'Branded content (paid partnership)',
        description:
          'TikTok\'s commercial content disclosure, "Branded content": the video is a paid partnership promoting a third party; TikTok labels it \'Paid partnership\'. Not with `privacy_level` `SELF_ONLY` ("Branded content visibility cannot be set to private."). Default false.',
      }),
    ),
    brand_organic_toggle: Type.Optional(
      Type.Boolean({
        title: 'Your brand (promotional content)',
        description:
          "TikTok's commercial content disclosure, \"Your brand\": the video promotes the creator's own business; TikTok labels it 'Promotional content' ('Paid partnership' when `brand_content_toggle` is set too). Default false.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const tiktokDefinition = {
  platform: 'tiktok',
  label: 'TikTok',
  grantsPages: false,
  // Comments and insights need TikTok's API for Business, which ordinary apps lack.
  comments: null,
  insights: null,
  metricDescriptions: null,
  reportFigures: null,
  publishing: {
    kinds: ['video'],
    // TikTok publishes by itself once it has pulled and processed the video.
    containerPublishes: true,
    // Get Post Status (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status)
    // states no interval (the status fetch allows 30 requests a minute per token) and no bound: "a
    // time limit is not guaranteed for the content posting process" (512 MB in under half a
    // minute, 1 GB in about one, 4 GB in more than two), though a pull "can not be completed within
    // the one-hour timeout" fails as video_pull_failed; a public post gets its id after moderation,
    // which "usually finishes within one minute. In some cases, moderation may take a few hours."
    // The bounds are the service's own: reads 2 s apart growing by half to a minute, two hours of
    // processing (TikTok's hour of pulling, then its processing), six hours for the public id.
    processing: {
      pollSeconds: 2,
      pollFactor: 1.5,
      maxPollSeconds: 60,
      limitSeconds: 2 * 3_600,
      permalinkLimitSeconds: 6 * 3_600,
    },
    // Direct Post reference: `title` at most 2,200 UTF-16 code units.
    text: { maxLength: 2_200, counting: UTF16_CODE_UNITS },
    carousel: null,
    // The longest video differs from creator to creator: creator_info's max_video_post_duration_sec,
    // checked when publishing (publish-rules.ts, durationProblems), not before.
    videoDurations: [],
    imageTypes: [],
    options: TIKTOK_OPTIONS,
    requiredOptions: ['privacy_level'],
  },
  settings: {},
} satisfies Omit<PlatformDefinition, 'create'>;
