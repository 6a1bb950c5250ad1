/** Bluesky (the AT Protocol, any PDS) as data. Facts: docs/platforms.md, "Bluesky". */
import { Type } from 'typebox';
import { countText } from '../../client/text-length.ts';
import type { PlatformDefinition, TextCounting } from '../definition.ts';

/** "app.bsky.feed.post": `text` has at most 300 graphemes (and 3000 bytes). */
const GRAPHEMES: TextCounting = {
  rule: 'graphemes',
  description: 'Graphemes, what a reader sees as one character: 😀, é and 👍🏽 (a thumb and a skin tone) count 1 each',
  length: (text) => countText(text, 'graphemes'),
};

/** A post's options for Bluesky (`platforms.bluesky`). */
export const BLUESKY_OPTIONS = Type.Object(
  {
    languages: Type.Optional(
      Type.Array(Type.String({ pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$' }), {
        minItems: 1,
        maxItems: 3,
        title: 'Languages',
        description:
          "The post's languages as BCP 47 tags (app.bsky.feed.post `langs`, at most 3), such as `en` or `pt-BR`.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const blueskyDefinition = {
  platform: 'bluesky',
  label: 'Bluesky',
  grantsPages: false,
  signInHint: {
    label: 'Your Bluesky handle',
    placeholder: 'alice.bsky.social',
    description: 'The handle you sign in to Bluesky with, on bsky.social or any other server.',
  },
  comments: null,
  insights: null,
  metricDescriptions: null,
  publishing: {
    kinds: ['text'],
    containerPublishes: false,
    processing: null,
    text: { maxLength: 300, counting: GRAPHEMES },
    carousel: null,
    videoDurations: [],
    imageTypes: ['image/jpeg', 'image/png', 'image/webp'],
    options: BLUESKY_OPTIONS,
    requiredOptions: [],
  },
  settings: {},
} satisfies Omit<PlatformDefinition, 'create'>;
