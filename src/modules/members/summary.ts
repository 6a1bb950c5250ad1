import type { Queryable } from '../../db/connection.ts';
import type { MemberRole } from '../../http/scope.ts';
import { getMember } from './service.ts';

/** What a member's dashboard session shows of it: who it is and its roles. */
export interface MemberSummary {
  id: string;
  email: string;
  name: string | null;
  roles: { role: MemberRole; profileId: string | null }[];
}

export async function memberSummary(db: Queryable, ownerId: string, memberId: string): Promise<MemberSummary> {
  const member = await getMember(db, ownerId, memberId);
  return { id: member.id, email: member.email, name: member.name, roles: member.roles };
}
