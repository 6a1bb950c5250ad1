/**
 * When a post needs its client's approval, and what its targets wait as: the rules creating
 * and changing a post follow (../service.ts), apart from the links that decide (links.ts).
 */
import type { Queryable } from '../../../db/connection.ts';
import { findProfile } from '../../profiles/index.ts';
import type { ApprovalStatus } from '../tables.ts';

/** Whether a new post needs approval: what it says, else its profile's setting. */
export async function approvalRequiredFor(
  db: Queryable,
  ownerId: string,
  profileId: string,
  asked: boolean | undefined,
): Promise<boolean> {
  if (asked !== undefined) return asked;
  return (await findProfile(db, ownerId, profileId))?.postApprovalRequired ?? false;
}

/**
 * The status targets take when a post is (re)scheduled: `draft` for a draft, else
 * `awaiting_approval` until the post is approved, else `scheduled`.
 */
export function scheduledStatus(
  draft: boolean,
  approval: { required: boolean; status: ApprovalStatus | null },
): 'draft' | 'awaiting_approval' | 'scheduled' {
  if (draft) return 'draft';
  return approval.required && approval.status !== 'approved' ? 'awaiting_approval' : 'scheduled';
}

/** The approval fields of a post whose content was just set: a decision is on a version, so it starts over. */
export function pendingApproval(required: boolean) {
  return {
    approvalRequired: required,
    approvalStatus: required ? ('pending' as const) : null,
    approvalDecidedAt: null,
    approvalLinkId: null,
    approvalDecidedBy: null,
    approvalComment: null,
  };
}
