/** What every TikTok route checks of its caller: the platform's tokens and errors, and the scopes it names. */
import type { CallOptions } from '../caller.ts';
import { tiktok } from './envelope.ts';

export const platform = 'tiktok';
export const call: CallOptions = { platform, errors: tiktok };
/** A publish also takes the faults set for `publish`. */
export const publishCall: CallOptions = { ...call, publishing: true };

export const SCOPE = {
  basic: 'user.info.basic',
  profile: 'user.info.profile',
  stats: 'user.info.stats',
  upload: 'video.upload',
  publish: 'video.publish',
};
