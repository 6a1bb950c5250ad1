/** What Facebook Login asks a user to grant for pages, and what each action needs (docs/platforms.md, "Scopes by action"). */
import type { ScopePolicy } from '../types.ts';

const SCOPE = {
  showList: 'pages_show_list',
  readEngagement: 'pages_read_engagement',
  readUserContent: 'pages_read_user_content',
  manageEngagement: 'pages_manage_engagement',
  managePosts: 'pages_manage_posts',
  /** Needed (with pages_show_list) to subscribe a page to the app's `feed` webhooks. */
  manageMetadata: 'pages_manage_metadata',
} as const;

export const FACEBOOK_SCOPES: ScopePolicy = {
  requested: [
    SCOPE.showList,
    SCOPE.readEngagement,
    SCOPE.readUserContent,
    SCOPE.manageEngagement,
    SCOPE.managePosts,
    SCOPE.manageMetadata,
  ],
  required: [SCOPE.showList, SCOPE.readEngagement],
  byAction: {
    read_profile: [SCOPE.showList],
    read_comments: [SCOPE.readUserContent],
    comment_notices: [SCOPE.manageMetadata, SCOPE.showList],
    reply: [SCOPE.manageEngagement],
    hide: [SCOPE.manageEngagement],
    delete_reply: [SCOPE.manageEngagement],
    publish: [SCOPE.managePosts],
  },
  // pages_show_list is required at connection: a refused subscription lacks pages_manage_metadata.
  refusedFor: { comment_notices: [SCOPE.manageMetadata] },
};
