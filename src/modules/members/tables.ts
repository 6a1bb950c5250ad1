import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';
import type { MemberRole } from '../../http/scope.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { optionalProfileIdColumn } from '../profiles/columns.ts';

export type MemberStatus = 'invited' | 'active';

/**
 * The people of an owner: each signs in to the dashboard as itself, by a link sent to its
 * address. A member's address is unique within its owner (kept as written, compared lower-cased).
 */
export const members = pgTable(
  'members',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    email: text('email').notNull(),
    name: text('name'),
    /** `invited` until the invitation is accepted. */
    status: text('status').$type<MemberStatus>().notNull(),
    /**
     * Where the member's e-mailed links lead when PUBLIC_URL is not set: the address the service
     * was reached at by whoever invited it, never a host a sign-in request names.
     */
    linkBase: text('link_base').notNull(),
    /** The argon2id hash (a PHC string) of the member's password, where passwords are allowed and it set one. */
    passwordHash: text('password_hash'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('members_owner_email_idx').on(t.ownerId, sql`lower(${t.email})`),
    index('members_email_idx').on(sql`lower(${t.email})`),
  ],
);

/**
 * A member's roles: one for the whole owner (no profile), and one per profile. A member without
 * a role on a profile does not see it.
 */
export const memberRoles = pgTable(
  'member_roles',
  {
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    /** Null: the role is for the whole owner. */
    profileId: optionalProfileIdColumn(),
    role: text('role').$type<MemberRole>().notNull(),
  },
  (t) => [
    unique('member_roles_member_profile_key').on(t.memberId, t.profileId).nullsNotDistinct(),
    index('member_roles_profile_idx').on(t.profileId),
  ],
);

export type MemberTokenPurpose = 'invitation' | 'sign_in';

/** Single-use links sent by e-mail: an invitation, or a sign-in. Only their SHA-256 is kept. */
export const memberTokens = pgTable(
  'member_tokens',
  {
    id: text('id').primaryKey(),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<MemberTokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('member_tokens_member_idx').on(t.memberId), index('member_tokens_expires_idx').on(t.expiresAt)],
);

/** Dashboard sessions of members: deleting the member ends them at once. */
export const memberSessions = pgTable(
  'member_sessions',
  {
    id: text('id').primaryKey(),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    /** SHA-256 of the cookie's token, hex. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('member_sessions_member_idx').on(t.memberId), index('member_sessions_expires_idx').on(t.expiresAt)],
);

export type Member = typeof members.$inferSelect;
