/** What Instagram asks a user to grant, and what each action needs of it (docs/platforms.md, "Scopes by action"). */
import type { ScopePolicy } from '../types.ts';

export const SCOPE = {
  basic: 'instagram_business_basic',
  publish: 'instagram_business_content_publish',
  comments: 'instagram_business_manage_comments',
  insights: 'instagram_business_manage_insights',
} as const;

export const INSTAGRAM_SCOPES: ScopePolicy = {
  requested: [SCOPE.basic, SCOPE.publish, SCOPE.comments, SCOPE.insights],
  required: [SCOPE.basic],
  byAction: {
    read_profile: [SCOPE.basic],
    read_comments: [SCOPE.basic, SCOPE.comments],
    comment_notices: [SCOPE.basic, SCOPE.comments],
    reply: [SCOPE.comments],
    hide: [SCOPE.comments],
    delete_reply: [SCOPE.comments],
    read_insights: [SCOPE.insights],
    publish: [SCOPE.publish],
  },
  // instagram_business_basic is required at connection: a refusal of these is for the comments permission.
  refusedFor: { read_comments: [SCOPE.comments], comment_notices: [SCOPE.comments] },
};
