/** Column builders every module's tables share. */
import { customType, timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull();
/** A point in time that may not have happened (yet): used_at, deleted_at, expires_at of optional things. */
export const timestampColumn = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** Bytes kept in the row itself: small files only (a logo), since every read of the column carries them. */
export const byteaColumn = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
