/** What Google Business Profile asks a Google user to grant, and what each action needs of it (docs/platforms.md, "Scopes by action"). */
import type { ScopePolicy } from '../types.ts';

/** "See, edit, create and delete your Google business listings": every Business Profile API. */
export const BUSINESS_MANAGE = 'https://www.googleapis.com/auth/business.manage';

export const GOOGLE_BUSINESS_SCOPES: ScopePolicy = {
  requested: [BUSINESS_MANAGE],
  // Without it no location can be listed: there is no account to make.
  required: [BUSINESS_MANAGE],
  byAction: {
    read_profile: [BUSINESS_MANAGE],
    publish: [BUSINESS_MANAGE],
    read_insights: [BUSINESS_MANAGE],
    // The reviews: listed, answered, the answer deleted.
    read_comments: [BUSINESS_MANAGE],
    reply: [BUSINESS_MANAGE],
    delete_reply: [BUSINESS_MANAGE],
  },
};
