/**
 * A post's options in the API's terms (`platforms.<platform>`, snake_case) turned into what
 * the adapters take, and the text each target publishes.
 */
import type { Platform, PublishOptions } from '../../platforms/index.ts';
import type { PlatformsJson } from './json.ts';

/** The text a target on `platform` publishes: its platform's own, else the post's. */
export function targetText(text: string | null, platforms: PlatformsJson, platform: Platform): string | undefined {
  const own = platforms[platform]?.text;
  return own ?? text ?? undefined;
}

/** The adapters' options for a target on `platform` (only that platform's part). */
export function publishOptions(platforms: PlatformsJson, platform: Platform): PublishOptions {
  switch (platform) {
    case 'instagram': {
      const o = platforms.instagram;
      return o ? { instagram: { type: o.type, firstComment: o.first_comment } } : {};
    }
    case 'threads': {
      const o = platforms.threads;
      return o ? { threads: { replyControl: o.reply_control, topicTag: o.topic_tag } } : {};
    }
    case 'tiktok': {
      const o = platforms.tiktok;
      // A missing privacy level is reported by the adapter's checkPublish (an empty one is no level).
      return {
        tiktok: {
          privacyLevel: o?.privacy_level ?? '',
          disableComment: o?.disable_comment,
          disableDuet: o?.disable_duet,
          disableStitch: o?.disable_stitch,
          brandContentToggle: o?.brand_content_toggle,
          brandOrganicToggle: o?.brand_organic_toggle,
        },
      };
    }
    case 'facebook': {
      const o = platforms.facebook;
      return o ? { facebook: { link: o.link } } : {};
    }
  }
}
