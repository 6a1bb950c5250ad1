/** YouTube (the YouTube Data API v3: a Google user's channels) as data. Facts: docs/platforms.md, "YouTube". */
import { Type } from 'typebox';
import type { PlatformDefinition } from '../definition.ts';
import { UTF8_BYTES } from './description-bytes.ts';

/** A post's options for YouTube (`platforms.youtube`): none yet, as nothing is published there yet. */
export const YOUTUBE_OPTIONS = Type.Object({}, { additionalProperties: false });

export const youtubeDefinition = {
  platform: 'youtube',
  label: 'YouTube',
  // A Google login reaches each channel channels.list(mine=true) answers; each chosen one is an account.
  grantsPages: true,
  comments: null,
  insights: null,
  metricDescriptions: null,
  publishing: {
    // Connecting channels comes first; videos (videos.insert through the resumable upload) next.
    kinds: [],
    containerPublishes: false,
    processing: null,
    // The post's text is the video's description: "a maximum length of 5000 bytes" (Videos resource).
    text: { maxLength: 5_000, counting: UTF8_BYTES },
    carousel: null,
    videoDurations: [],
    imageTypes: [],
    options: YOUTUBE_OPTIONS,
  },
  settings: {},
} satisfies Omit<PlatformDefinition, 'create'>;
