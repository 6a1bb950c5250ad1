import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';

export type AuditActorType = 'api_key' | 'member' | 'approval_link' | 'connect_link' | 'reconnect_link' | 'operator';
export type AuditVia = 'api' | 'dashboard' | 'approval_page' | 'connect_page' | 'cli';

/**
 * One change made through the API, the dashboard or a link a client was sent. Its profile is
 * held as text, without a reference: the record of who deleted a profile (and of what was done
 * in it before) outlives the profile, until the retention time deletes it.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: text('profile_id'),
    actorType: text('actor_type').$type<AuditActorType>().notNull(),
    actorId: text('actor_id').notNull(),
    /** The key's name when it was used (a key is named by whoever made it; none for a link or the operator). */
    actorName: text('actor_name'),
    /** `api`, `dashboard` (a session cookie), or the hosted page a link opened: `approval_page`, `connect_page`. */
    via: text('via').$type<AuditVia>().notNull(),
    /** The request's method and route, as the OpenAPI document names it (`DELETE /v1/posts/{id}`). */
    operation: text('operation').notNull(),
    objectId: text('object_id'),
    status: integer('status').notNull(),
    requestId: text('request_id').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_entries_owner_idx').on(t.ownerId, t.id),
    index('audit_entries_actor_idx').on(t.ownerId, t.actorId, t.id),
    index('audit_entries_profile_idx').on(t.ownerId, t.profileId, t.id),
    index('audit_entries_object_idx').on(t.ownerId, t.objectId, t.id),
    index('audit_entries_created_idx').on(t.createdAt),
  ],
);

export type AuditEntry = typeof auditEntries.$inferSelect;
