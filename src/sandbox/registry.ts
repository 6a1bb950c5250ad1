/**
 * The sandbox's platforms. Each one's folder declares its part (a SandboxPlatform,
 * platform.ts); this list is what the index mounts and what the control API and the
 * webhooks know of. Adding a platform to the sandbox is its folder and a line here.
 */
import { blueskyPlatform } from './bluesky/index.ts';
import { facebookPlatform } from './facebook/index.ts';
import { googleBusinessPlatform } from './google_business/index.ts';
import { instagramPlatform } from './instagram/index.ts';
import { linkedinPlatform } from './linkedin/index.ts';
import { pinterestPlatform } from './pinterest/index.ts';
import { threadsPlatform } from './threads/index.ts';
import { tiktokPlatform } from './tiktok/index.ts';
import { xPlatform } from './x/index.ts';
import { youtubePlatform } from './youtube/index.ts';

export const SANDBOX_PLATFORMS = [
  instagramPlatform,
  threadsPlatform,
  tiktokPlatform,
  facebookPlatform,
  linkedinPlatform,
  youtubePlatform,
  xPlatform,
  googleBusinessPlatform,
  pinterestPlatform,
  blueskyPlatform,
] as const;

export type SandboxPlatformName = (typeof SANDBOX_PLATFORMS)[number]['name'];
