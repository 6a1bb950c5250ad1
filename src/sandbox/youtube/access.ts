/** What every YouTube route of the sandbox checks of its caller: the Google user's token, Google's errors, YouTube's scopes. */
import type { CallOptions } from '../caller.ts';
import { google } from '../google/answers.ts';

export const platform = 'youtube';
export const call: CallOptions = { platform, errors: google };

export const SCOPE = {
  upload: 'https://www.googleapis.com/auth/youtube.upload',
  forceSsl: 'https://www.googleapis.com/auth/youtube.force-ssl',
  readonly: 'https://www.googleapis.com/auth/youtube.readonly',
  manage: 'https://www.googleapis.com/auth/youtube',
  analytics: 'https://www.googleapis.com/auth/yt-analytics.readonly',
};
/** Starting an upload also takes the faults set for `publish`. */
export const publishCall: CallOptions = { ...call, publishing: true };
