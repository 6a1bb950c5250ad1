/**
 * An owner's members: invited by e-mail with their roles, listed, changed and removed. Removing
 * a member deletes its sessions and links with it, so its open dashboard ends at its next request.
 */
import { and, asc, eq, gt, inArray, max, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { ApiError, errors } from '../../http/errors.ts';
import type { MemberRole } from '../../http/scope.ts';
import { newId } from '../../ids.ts';
import { findProfile } from '../profiles/index.ts';
import { type Member, memberRoles, members, memberTokens } from './tables.ts';
import { sendLink, voidLinks } from './tokens.ts';

export interface RoleGrant {
  role: MemberRole;
  /** Null: for the whole owner. */
  profileId: string | null;
}

export interface MemberWithRoles extends Member {
  roles: RoleGrant[];
  /** When an unanswered invitation ends (null once accepted). */
  invitationExpiresAt: Date | null;
}

export const memberNotFound = (id: string) =>
  new ApiError(404, 'member_not_found', `No member with id ${JSON.stringify(id)}.`);

/** One role a member holds at most per place: the whole owner, or a profile. */
function checkGrants(grants: RoleGrant[]): void {
  const places = grants.map((g) => g.profileId ?? '');
  if (new Set(places).size !== places.length) {
    throw errors.validation([
      { field: 'body.roles', message: 'gives two roles for the same place (the whole owner, or one profile)' },
    ]);
  }
}

/** The grants with each profile named by its id; a profile not the owner's (or being deleted) is not found. */
async function resolveGrants(db: Queryable, ownerId: string, grants: RoleGrant[]): Promise<RoleGrant[]> {
  const resolved: RoleGrant[] = [];
  for (const grant of grants) {
    if (grant.profileId === null) {
      resolved.push(grant);
      continue;
    }
    const profile = await findProfile(db, ownerId, grant.profileId);
    if (!profile) throw errors.profileNotFound(grant.profileId);
    resolved.push({ role: grant.role, profileId: profile.id });
  }
  checkGrants(resolved);
  return resolved;
}

async function rolesOf(db: Queryable, memberIds: string[]): Promise<Map<string, RoleGrant[]>> {
  const byMember = new Map<string, RoleGrant[]>();
  if (memberIds.length === 0) return byMember;
  const rows = await db
    .select()
    .from(memberRoles)
    .where(inArray(memberRoles.memberId, memberIds))
    // The whole owner's role first, then profiles by id.
    .orderBy(asc(memberRoles.memberId), sql`${memberRoles.profileId} asc nulls first`);
  for (const row of rows) {
    const list = byMember.get(row.memberId) ?? [];
    list.push({ role: row.role, profileId: row.profileId });
    byMember.set(row.memberId, list);
  }
  return byMember;
}

async function invitationEnds(db: Queryable, memberIds: string[]): Promise<Map<string, Date>> {
  if (memberIds.length === 0) return new Map();
  const rows = await db
    .select({ memberId: memberTokens.memberId, expiresAt: max(memberTokens.expiresAt) })
    .from(memberTokens)
    .where(
      and(
        eq(memberTokens.purpose, 'invitation'),
        inArray(memberTokens.memberId, memberIds),
        gt(memberTokens.expiresAt, now()),
      ),
    )
    .groupBy(memberTokens.memberId);
  return new Map(rows.flatMap((r) => (r.expiresAt === null ? [] : [[r.memberId, r.expiresAt]])));
}

async function withRoles(db: Queryable, rows: Member[]): Promise<MemberWithRoles[]> {
  const ids = rows.map((r) => r.id);
  const [roles, invitations] = await Promise.all([rolesOf(db, ids), invitationEnds(db, ids)]);
  return rows.map((row) => ({
    ...row,
    roles: roles.get(row.id) ?? [],
    invitationExpiresAt: row.status === 'invited' ? (invitations.get(row.id) ?? null) : null,
  }));
}

export async function getMember(db: Queryable, ownerId: string, id: string): Promise<MemberWithRoles> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.ownerId, ownerId), eq(members.id, id)));
  if (!row) throw memberNotFound(id);
  const [member] = await withRoles(db, [row]);
  if (!member) throw memberNotFound(id);
  return member;
}

export async function listMembers(
  db: Queryable,
  ownerId: string,
  page: { limit: number; after?: string | undefined },
): Promise<MemberWithRoles[]> {
  const rows = await db
    .select()
    .from(members)
    .where(and(eq(members.ownerId, ownerId), page.after === undefined ? undefined : gt(members.id, page.after)))
    .orderBy(asc(members.id))
    .limit(page.limit + 1);
  return await withRoles(db, rows);
}

const memberExists = (email: string) =>
  new ApiError(409, 'member_exists', `The owner already has a member with the address ${JSON.stringify(email)}.`);

/** Invites a person: the member, its roles, and the invitation e-mail, in one transaction. */
export async function inviteMember(
  db: Db,
  secretKey: Buffer,
  ownerId: string,
  input: { email: string; name: string | null; roles: RoleGrant[]; linkBase: string },
): Promise<MemberWithRoles> {
  const id = newId('member');
  try {
    await db.transaction(async (tx) => {
      const grants = await resolveGrants(tx, ownerId, input.roles);
      const at = now();
      await tx.insert(members).values({
        id,
        ownerId,
        email: input.email,
        name: input.name,
        status: 'invited',
        linkBase: input.linkBase,
        createdAt: at,
        updatedAt: at,
      });
      await insertGrants(tx, id, grants);
      await sendLink(tx, secretKey, id, 'invitation', at);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw memberExists(input.email);
    throw error;
  }
  return await getMember(db, ownerId, id);
}

async function insertGrants(tx: Tx, memberId: string, grants: RoleGrant[]): Promise<void> {
  if (grants.length === 0) return;
  await tx.insert(memberRoles).values(grants.map((g) => ({ memberId, profileId: g.profileId, role: g.role })));
}

/** Renames a member or replaces its roles; the new roles count from its next request. */
export async function updateMember(
  db: Db,
  ownerId: string,
  id: string,
  patch: { name?: string | null; roles?: RoleGrant[] },
): Promise<MemberWithRoles> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(members)
      .set({ updatedAt: now(), ...(patch.name !== undefined ? { name: patch.name } : {}) })
      .where(and(eq(members.ownerId, ownerId), eq(members.id, id)))
      .returning({ id: members.id });
    if (!row) throw memberNotFound(id);
    if (patch.roles === undefined) return;
    const grants = await resolveGrants(tx, ownerId, patch.roles);
    await tx.delete(memberRoles).where(eq(memberRoles.memberId, id));
    await insertGrants(tx, id, grants);
  });
  return await getMember(db, ownerId, id);
}

/** Removes a member: its roles, links and sessions go with it, so it is signed out at once. */
export async function removeMember(db: Queryable, ownerId: string, id: string): Promise<void> {
  const rows = await db
    .delete(members)
    .where(and(eq(members.ownerId, ownerId), eq(members.id, id)))
    .returning({ id: members.id });
  if (rows.length === 0) throw memberNotFound(id);
}

/**
 * Sends an invited member a new invitation, to the address the service is reached at now; the
 * links sent before stop working.
 */
export async function reinvite(
  db: Db,
  secretKey: Buffer,
  ownerId: string,
  id: string,
  linkBase: string,
): Promise<MemberWithRoles> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ status: members.status })
      .from(members)
      .where(and(eq(members.ownerId, ownerId), eq(members.id, id)))
      .for('update');
    if (!row) throw memberNotFound(id);
    if (row.status !== 'invited') {
      throw new ApiError(
        409,
        'member_already_active',
        'This member accepted its invitation already; it signs in by e-mail.',
      );
    }
    await tx.update(members).set({ linkBase }).where(eq(members.id, id));
    await voidLinks(tx, id, 'invitation');
    await sendLink(tx, secretKey, id, 'invitation');
  });
  return await getMember(db, ownerId, id);
}

/** The profile deletion step: roles on a profile being deleted end with its other access. */
export async function revokeProfileRoles(db: Queryable, profileId: string): Promise<void> {
  await db.delete(memberRoles).where(eq(memberRoles.profileId, profileId));
}
