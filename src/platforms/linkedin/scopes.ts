/** What LinkedIn asks a member to grant, and what each action needs of it (docs/platforms.md, "Scopes by action"). */
import type { ScopePolicy } from '../types.ts';

export const LINKEDIN_SCOPE = {
  /** The member's own id (`GET /rest/me`). */
  basicProfile: 'r_basicprofile',
  /** The organizations the member administers, their pages' details and their statistics. */
  organizationAdmin: 'rw_organization_admin',
  /** Reading an organization's posts and their comments. */
  organizationRead: 'r_organization_social',
  /** Posting and commenting as an organization. */
  organizationWrite: 'w_organization_social',
} as const;

export const LINKEDIN_SCOPES: ScopePolicy = {
  requested: [
    LINKEDIN_SCOPE.basicProfile,
    LINKEDIN_SCOPE.organizationAdmin,
    LINKEDIN_SCOPE.organizationRead,
    LINKEDIN_SCOPE.organizationWrite,
  ],
  // Without the member's id and the organizations they administer there is no account to make.
  required: [LINKEDIN_SCOPE.basicProfile, LINKEDIN_SCOPE.organizationAdmin],
  byAction: {
    read_profile: [LINKEDIN_SCOPE.organizationAdmin],
    read_comments: [LINKEDIN_SCOPE.organizationRead],
    reply: [LINKEDIN_SCOPE.organizationWrite],
    // "Delete a Comment" acts as the organization, as creating one does.
    delete_reply: [LINKEDIN_SCOPE.organizationWrite],
    // Share and follower statistics: rw_organization_admin, restricted to ADMINISTRATOR roles.
    read_insights: [LINKEDIN_SCOPE.organizationAdmin],
    publish: [LINKEDIN_SCOPE.organizationWrite],
  },
};
