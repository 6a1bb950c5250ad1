/**
 * How the API shows a platform: its definition (src/platforms/<platform>/definition.ts) as data,
 * and whether this service can reach it. Every fact is read from the definition the adapters and
 * the post checks read, so the catalogue cannot say one thing while the API enforces another.
 */
import { type Static, Type } from 'typebox';
import { Nullable } from '../../http/schemas.ts';
import {
  type MetricDescriptions,
  PLATFORMS,
  type Platform,
  type PlatformSet,
  platformInfo,
} from '../../platforms/index.ts';
import { platformOptionsSchema } from '../posts/index.ts';

export const PlatformName = Type.Enum(PLATFORMS, { description: 'The platform, as accounts and posts name it.' });

const AVAILABILITY = ['sandbox', 'live', 'not_configured'] as const;

const TextJson = Type.Object(
  {
    max_length: Type.Integer({
      description: "The longest text (a post's, or its `platforms.<platform>.text`), as `counting` counts it.",
    }),
    counting: Type.String({
      description:
        "How the platform counts a text's length: `code_points` (Unicode characters), `utf16_code_units` (a character beyond U+FFFF, as most emoji are, counts 2), or a rule of the platform's own, named for it (Threads: `code_points_emoji_as_utf8_bytes`).",
    }),
    counting_description: Type.String({ description: 'The counting rule in words, with examples.' }),
    max_hashtags: Nullable(Type.Integer(), 'The most hashtags (`#tag`) a text may hold; null: no such limit.'),
    max_mentions: Nullable(Type.Integer(), 'The most accounts (`@name`) a text may mention; null: no such limit.'),
  },
  { additionalProperties: false },
);

const CarouselJson = Type.Object(
  {
    min_items: Type.Integer({ description: 'The fewest images and videos in one carousel post.' }),
    max_items: Nullable(Type.Integer(), 'The most; null: no limit the service knows of.'),
  },
  { additionalProperties: false },
);

const VideoDurationJson = Type.Object(
  {
    in: Type.Enum(['single', 'carousel'], {
      description: "`single`: the post's only medium; `carousel`: one of a carousel's items.",
    }),
    options: Nullable(
      Type.Object({}, { additionalProperties: true }),
      'The post options that choose this rule (Instagram\'s `{"type": "reel"}`); null: any post the other rules do not choose.',
    ),
    min_seconds: Type.Number(),
    max_seconds: Type.Number(),
  },
  { additionalProperties: false },
);

const PublishingJson = Type.Object(
  {
    kinds: Type.Array(Type.Enum(['text', 'image', 'video', 'carousel', 'document']), {
      description:
        'What a post can be there: `text` (text alone), `image` (one image), `video` (one video), `carousel` (several images and videos in one post), `document` (one PDF medium, shown as a document: LinkedIn). A post with a document to a platform without `document` is 400 `validation_failed`.',
    }),
    text: TextJson,
    carousel: Nullable(CarouselJson, 'How many media one carousel post holds; null where `kinds` has no `carousel`.'),
    video_durations: Type.Array(VideoDurationJson, {
      description:
        "The video lengths checked before publishing (a video whose length is known and outside them is 400 `validation_failed` on `media_ids`). Empty: none checked before publishing (TikTok checks each creator's own longest length when publishing).",
    }),
    image_types: Type.Array(Type.String(), {
      description:
        'The image formats the platform takes (MIME types); an image of another format is converted to JPEG for it. Empty where `kinds` has no image.',
    }),
    options: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          "The JSON schema of `platforms.<platform>` in POST /v1/posts: the text for this platform instead of the post's, and the options the platform takes (each with a `title` to label it in a form, and a `description`).",
      },
    ),
    required_options: Type.Array(Type.String(), {
      description:
        "The options every post for this platform must set (YouTube's `title` and `made_for_kids`, TikTok's `privacy_level`): a post whose accounts include one there without them is 400 `validation_failed` at `platforms.<platform>.<name>`. The schema in `options` leaves them optional, as a post names options only for its accounts' platforms.",
    }),
    listed_options: Type.Array(Type.String(), {
      description:
        "The options whose values are each account's own on the platform (Pinterest's `board_id`: the account's boards): GET /v1/accounts/{id}/options/{option} lists them for an account, and a post naming a value that is not among its account's is refused (400 `validation_failed` at `platforms.<platform>.<name>`).",
    }),
  },
  { additionalProperties: false },
);

const CommentsJson = Type.Object(
  {
    reply: Type.Boolean({ description: 'An account can answer comments (POST /v1/comments/{id}/reply).' }),
    hide: Type.Boolean({ description: 'An account can hide and unhide comments (POST /v1/comments/{id}/hide).' }),
    delete_reply: Type.Boolean({
      description:
        'An account can delete a reply it sent through the API, on the platform (DELETE /v1/comments/{id}/replies/{reply_id}); where false, that answers 422 `unsupported_platform`.',
    }),
    hide_replies: Type.Boolean({
      description: 'Replies (comments under a comment) can be hidden, not only top-level comments.',
    }),
    reply_to_hidden: Type.Boolean({ description: 'A hidden comment can be answered.' }),
  },
  { additionalProperties: false },
);

const MetricJson = Type.Object(
  {
    name: Type.String({ description: 'As `metrics` of the insights endpoints names it.' }),
    description: Type.String({
      description: 'What it counts on this platform (the same name can count different things on two platforms).',
    }),
  },
  { additionalProperties: false },
);

const InsightsJson = Type.Object(
  {
    account: Type.Array(MetricJson, { description: 'GET /v1/accounts/{id}/insights: daily figures of an account.' }),
    post: Type.Array(MetricJson, { description: 'GET /v1/posts/{id}/insights: lifetime figures of a post.' }),
    report: Type.Object(
      {
        followers: Nullable(
          Type.String(),
          "The account metric a report's `followers` is (a count, not summed); null: the platform offers none.",
        ),
        views: Type.Array(Type.String(), {
          description: "The account metrics a report's `views` adds up, day by day; empty: the platform offers none.",
        }),
        engagement: Type.Object(
          {
            account: Type.Array(Type.String(), {
              description:
                "The account metrics a report's `engagement` adds up, day by day; empty: the platform gives an account none.",
            }),
            post: Type.Array(Type.String(), {
              description: "The post metrics a report's best post is ranked by, added up.",
            }),
          },
          { additionalProperties: false },
        ),
      },
      {
        additionalProperties: false,
        description: 'GET /v1/profiles/{id}/report: which metrics make its headline figures on this platform.',
      },
    ),
  },
  { additionalProperties: false },
);

export const PlatformJson = Type.Object(
  {
    platform: PlatformName,
    label: Type.String({ description: 'The name to show people: "Facebook Pages".' }),
    availability: Type.Enum(AVAILABILITY, {
      description:
        "For the caller's owner. `sandbox`: this service runs on the sandbox platforms (`PLATFORMS=sandbox`), which imitate it; `live`: it has credentials for the real platform, or the owner brought its own app there (`owner_apps`); `not_configured`: neither (`<PLATFORM>_CLIENT_ID` and `_CLIENT_SECRET` unset and no app of the owner's), so a connect link cannot offer it (422 `platform_not_available`).",
    }),
    api_access: Nullable(
      Type.String(),
      "What the owner must arrange with the platform beyond the app's id and secret (X: a paid plan of its own app); null: nothing.",
    ),
    owner_apps: Type.Boolean({
      description:
        "Each owner may bring its own app here (PUT /v1/platform-apps/{platform}): its accounts then connect, refresh and act through it, on its own plan, instead of this service's app. False: every account uses this service's app.",
    }),
    grants_pages: Type.Boolean({
      description:
        'One sign-in grants several pages, each becoming an account (Facebook: the pages the login manages).',
    }),
    publishing: PublishingJson,
    comments: Nullable(
      CommentsJson,
      'What the comments endpoints can do there; null: the service reads no comments there.',
    ),
    insights: Nullable(
      InsightsJson,
      'The metrics offered, with what each counts; null: the service offers no insights there.',
    ),
  },
  { additionalProperties: false },
);
export type PlatformJson = Static<typeof PlatformJson>;

/** A TypeBox schema as the plain JSON schema it stands for. */
function plainSchema(schema: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

function metricsJson(described: MetricDescriptions['account']): Static<typeof MetricJson>[] {
  return Object.entries(described).map(([name, description]) => ({ name, description }));
}

function availabilityOf(
  platforms: PlatformSet,
  available: readonly Platform[],
  platform: Platform,
): PlatformJson['availability'] {
  if (!available.includes(platform)) return 'not_configured';
  return platforms.mode === 'sandbox' ? 'sandbox' : 'live';
}

/** `available`: the platforms the caller's owner can connect accounts on (its own apps counted). */
export function renderPlatform(
  platforms: PlatformSet,
  available: readonly Platform[],
  platform: Platform,
): PlatformJson {
  const { label, apiAccess, ownerApps, grantsPages, publishing, comments, metricDescriptions, reportFigures } =
    platformInfo(platform);
  const { text, carousel } = publishing;
  return {
    platform,
    label,
    availability: availabilityOf(platforms, available, platform),
    api_access: apiAccess ?? null,
    owner_apps: ownerApps === true,
    grants_pages: grantsPages,
    publishing: {
      kinds: [...publishing.kinds],
      text: {
        max_length: text.maxLength,
        counting: text.counting.rule,
        counting_description: text.counting.description,
        max_hashtags: text.maxHashtags ?? null,
        max_mentions: text.maxMentions ?? null,
      },
      carousel: carousel === null ? null : { min_items: carousel.minItems, max_items: carousel.maxItems },
      video_durations: publishing.videoDurations.map((rule) => ({
        in: rule.in,
        options: rule.options === undefined ? null : { ...rule.options },
        min_seconds: rule.minSeconds,
        max_seconds: rule.maxSeconds,
      })),
      image_types: [...publishing.imageTypes],
      options: plainSchema(platformOptionsSchema(platform)),
      required_options: [...publishing.requiredOptions],
      listed_options: Object.keys(publishing.listedOptions ?? {}),
    },
    comments:
      comments === null
        ? null
        : {
            reply: comments.reply,
            hide: comments.hide,
            delete_reply: comments.deleteReply,
            hide_replies: comments.hideReplies,
            reply_to_hidden: comments.replyToHidden,
          },
    insights:
      metricDescriptions === null || reportFigures === null
        ? null
        : {
            account: metricsJson(metricDescriptions.account),
            post: metricsJson(metricDescriptions.post),
            report: {
              followers: reportFigures.followers,
              views: [...reportFigures.views],
              engagement: { account: [...reportFigures.engagement.account], post: [...reportFigures.engagement.post] },
            },
          },
  };
}
