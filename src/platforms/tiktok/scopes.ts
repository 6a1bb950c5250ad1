/** What TikTok asks a user to grant, and what each action needs of it (docs/platforms.md, "Scopes by action"). */
import type { ScopePolicy } from '../types.ts';

const SCOPE = {
  basic: 'user.info.basic',
  profile: 'user.info.profile',
  stats: 'user.info.stats',
  videoList: 'video.list',
  publish: 'video.publish',
} as const;

export const TIKTOK_SCOPES: ScopePolicy = {
  requested: [SCOPE.basic, SCOPE.profile, SCOPE.stats, SCOPE.videoList, SCOPE.publish],
  required: [SCOPE.basic],
  // Comments, replies and insights need TikTok's API for Business: unsupported here.
  byAction: {
    read_profile: [SCOPE.basic],
    publish: [SCOPE.publish],
  },
};
