import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** The rows of one profile: its owner's and its own (a profile id is never matched without its owner). */
export function ofProfile(
  table: { ownerId: PgColumn; profileId: PgColumn },
  profile: { ownerId: string; id: string },
): SQL {
  return and(eq(table.ownerId, profile.ownerId), eq(table.profileId, profile.id)) as SQL;
}
