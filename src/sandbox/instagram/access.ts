/** What every Instagram route checks of its caller: the platform's tokens and errors, and the scopes it names. */
import type { CallOptions } from '../caller.ts';
import { graphErrors } from '../meta/errors.ts';

export const platform = 'instagram';
export const call: CallOptions = { platform, errors: graphErrors(platform, { revokedSubcode: 458 }) };
/** A publish also takes the faults set for `publish`. */
export const publishCall: CallOptions = { ...call, publishing: true };

export const SCOPE = {
  basic: 'instagram_business_basic',
  publish: 'instagram_business_content_publish',
  comments: 'instagram_business_manage_comments',
  insights: 'instagram_business_manage_insights',
};
