import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../db/columns.ts';
import type { Platform } from '../../platforms/index.ts';
import { ownerIdColumn } from '../owners/columns.ts';

/**
 * An owner's own app on a platform (its X app, on its own plan), used instead of the
 * deployment's for the accounts it connects. One per owner and platform; the secret is stored
 * encrypted under SECRET_KEY and never shown again.
 */
export const platformApps = pgTable(
  'platform_apps',
  {
    ownerId: ownerIdColumn(),
    platform: text('platform').$type<Platform>().notNull(),
    clientId: text('client_id').notNull(),
    clientSecretSealed: text('client_secret_sealed').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.platform] })],
);

export type PlatformAppRow = typeof platformApps.$inferSelect;
