/** What LinkedIn asks a member to grant, and what each action needs of it (docs/platforms.md, "Scopes by action"). */
import type { ScopePolicy } from '../types.ts';
import { isPerson } from './author.ts';

export const LINKEDIN_SCOPE = {
  /** The member's id, name and vanity name (`GET /rest/me`). */
  basicProfile: 'r_basicprofile',
  /** The organizations the member administers, their pages' details and their statistics. */
  organizationAdmin: 'rw_organization_admin',
  /** Reading an organization's posts and their comments. */
  organizationRead: 'r_organization_social',
  /** Posting and commenting as an organization. */
  organizationWrite: 'w_organization_social',
  /** Posting as the member ("Required to create a LinkedIn post on behalf of the authenticated member"). */
  memberWrite: 'w_member_social',
  /** The member's posts' figures (Member Post Statistics): not requested, see forAccount. */
  memberPostAnalytics: 'r_member_postAnalytics',
} as const;

export const LINKEDIN_SCOPES: ScopePolicy = {
  requested: [
    LINKEDIN_SCOPE.basicProfile,
    LINKEDIN_SCOPE.organizationAdmin,
    LINKEDIN_SCOPE.organizationRead,
    LINKEDIN_SCOPE.organizationWrite,
    LINKEDIN_SCOPE.memberWrite,
  ],
  // Without the member's id and the organizations they administer there is no account to make;
  // without w_member_social the member's own profile is not offered, the organizations still are.
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
  // The member's own profile: posted to with w_member_social; its comments are not read (reading
  // a member's comments takes r_member_social, "granted to select developers only"), so reading
  // and replying are absent; its figures need r_member_postAnalytics, which is not requested.
  forAccount: (platformUserId) =>
    isPerson(platformUserId)
      ? {
          read_profile: [LINKEDIN_SCOPE.basicProfile],
          publish: [LINKEDIN_SCOPE.memberWrite],
          read_insights: [LINKEDIN_SCOPE.memberPostAnalytics],
        }
      : undefined,
};
