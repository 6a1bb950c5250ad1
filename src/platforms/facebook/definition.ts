/** Facebook Pages as data. Facts: docs/platforms.md, "Facebook Pages". */
import { Type } from 'typebox';
import type { PlatformDefinition } from '../definition.ts';
import { CURRENT_GRAPH_API_VERSION, graphVersionSetting } from '../meta/settings.ts';
import { UTF16_CODE_UNITS } from '../text-counting.ts';

/** What a page post takes beside its text (`platforms.facebook`). */
export const FACEBOOK_OPTIONS = Type.Object(
  {
    link: Type.Optional(
      Type.String({
        title: 'Link to share',
        maxLength: 2048,
        description: 'A link the page post shares (absolute http or https URL).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const facebookDefinition = {
  platform: 'facebook',
  label: 'Facebook Pages',
  grantsPages: true,
  // A Comment's `is_hidden` can be set on replies as on top-level comments, which `can_hide`
  // tells per comment; a page may comment on a hidden comment (Graph API Comment reference,
  // https://developers.facebook.com/docs/graph-api/reference/comment). A page's own comments
  // cannot be hidden: the sandbox answers `can_hide: false` for them.
  comments: { reply: true, hide: true, deleteReply: true, replyToHidden: true, hideReplies: true },
  // The service offers insights for Instagram and Threads only.
  insights: null,
  metricDescriptions: null,
  reportFigures: null,
  publishing: {
    // No video on pages; several photos make one post.
    kinds: ['text', 'image', 'carousel'],
    containerPublishes: false,
    // The photos are uploaded when the container is made and the feed post made at once: nothing
    // is processed in between, so nothing is polled.
    processing: null,
    // Facebook allows 63,206 characters in a post (Pages' post limits); the service counts them
    // as UTF-16 code units, as it always has.
    text: { maxLength: 63_206, counting: UTF16_CODE_UNITS },
    // Several photos make one post; the service knows of no most.
    carousel: { minItems: 2, maxItems: null },
    videoDurations: [],
    // Facebook's photo formats include JPEG and PNG; WebP is converted to be safe.
    imageTypes: ['image/jpeg', 'image/png'],
    options: FACEBOOK_OPTIONS,
    requiredOptions: [],
  },
  settings: {
    graphVersion: graphVersionSetting(
      'FACEBOOK_GRAPH_VERSION',
      'the Graph API (graph.facebook.com and the login dialog)',
      CURRENT_GRAPH_API_VERSION,
    ),
  },
} satisfies Omit<PlatformDefinition, 'create'>;
