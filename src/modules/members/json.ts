/** How the API shows a member: the schemas and the one function that renders a member to them. */
import { type Static, Type } from 'typebox';
import { Nullable, Timestamp } from '../../http/schemas.ts';
import type { MemberWithRoles, RoleGrant } from './service.ts';

export const RoleName = Type.Union(
  [Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer'), Type.Literal('client')],
  {
    description:
      '`admin`: everything an owner key can, members and keys included; `editor`: posts, media, comments, connect and reconnect links, insights; `viewer`: reads only; `client`: reads its profile, its posts and their insights.',
  },
);

export const RoleGrantJson = Type.Object(
  {
    role: RoleName,
    profile_id: Nullable(
      Type.String({ minLength: 1, maxLength: 255 }),
      'The profile (id or external_id on input); null: the whole owner.',
    ),
  },
  { additionalProperties: false, title: 'MemberRole' },
);

export const MemberJson = Type.Object(
  {
    id: Type.String({ description: 'Member id, `mem_...`.' }),
    email: Type.String(),
    name: Nullable(Type.String(), 'As the inviter wrote it.'),
    status: Type.Union([Type.Literal('invited'), Type.Literal('active')], {
      description: '`invited` until the invitation is accepted.',
    }),
    roles: Type.Array(Type.Object({ role: RoleName, profile_id: Nullable(Type.String(), 'Null: the whole owner.') }), {
      description: 'The whole owner first, then profiles. A profile without a role is not shown to the member.',
    }),
    invitation_expires_at: Nullable(
      Timestamp,
      'When the invitation stops working; null once accepted (or expired: send another).',
    ),
    last_sign_in_at: Nullable(Timestamp, 'Null until the member first signs in.'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Member', title: 'Member' },
);

export function renderMember(member: MemberWithRoles): Static<typeof MemberJson> {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    status: member.status,
    roles: member.roles.map((r) => ({ role: r.role, profile_id: r.profileId })),
    invitation_expires_at: member.invitationExpiresAt?.toISOString() ?? null,
    last_sign_in_at: member.lastSignInAt?.toISOString() ?? null,
    created_at: member.createdAt.toISOString(),
    updated_at: member.updatedAt.toISOString(),
  };
}

export function grantsOf(roles: Static<typeof RoleGrantJson>[]): RoleGrant[] {
  return roles.map((r) => ({ role: r.role, profileId: r.profile_id ?? null }));
}
