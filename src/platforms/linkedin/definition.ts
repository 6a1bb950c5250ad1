/** LinkedIn (the Community Management API: organization pages) as data. Facts: docs/platforms.md, "LinkedIn". */
import { Type } from 'typebox';
import type { PlatformDefinition } from '../definition.ts';
import { UTF16_CODE_UNITS } from '../text-counting.ts';

/** A post's options for LinkedIn (`platforms.linkedin`): none yet beside its text. */
export const LINKEDIN_OPTIONS = Type.Object({}, { additionalProperties: false });

export const linkedinDefinition = {
  platform: 'linkedin',
  label: 'LinkedIn',
  // One member's login reaches every organization page they administer; each chosen page is an account.
  grantsPages: true,
  // Comments API: comments are read and answered as the organization; LinkedIn offers no hiding.
  comments: { reply: true, hide: false, replyToHidden: false, hideReplies: false },
  // Organization insights are the next increment.
  insights: null,
  metricDescriptions: null,
  publishing: {
    kinds: ['text', 'image', 'carousel'],
    // Creating the post (POST /rest/posts with lifecycleState PUBLISHED) is the publication.
    containerPublishes: true,
    // The post is created PUBLISHED: nothing is processed, so nothing is polled.
    processing: null,
    // 3,000 characters: LinkedIn's composer limit, which its API pages do not state; counted as
    // UTF-16 code units of the text as written, before Little Text Format escaping (docs/platforms.md,
    // Open questions).
    text: { maxLength: 3_000, counting: UTF16_CODE_UNITS },
    // MultiImage API: "minimum of 2 images and maximum of 20 images".
    carousel: { minItems: 2, maxItems: 20 },
    videoDurations: [],
    // Images API: JPG, GIF and PNG.
    imageTypes: ['image/jpeg', 'image/png', 'image/gif'],
    options: LINKEDIN_OPTIONS,
  },
  settings: {},
} satisfies Omit<PlatformDefinition, 'create'>;
