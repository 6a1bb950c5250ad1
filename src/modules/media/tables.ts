import { bigint, doublePrecision, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { profileIdColumn } from '../profiles/columns.ts';

/**
 * Uploaded and imported media. The file lives in media storage under the key `id/original`
 * (the id is the storage path, so nothing user-given ever names a file); a JPEG made for
 * Instagram from a PNG, WebP or GIF image under `id/jpeg`.
 */
export const media = pgTable(
  'media',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: profileIdColumn(),
    /** `image` or `video`. */
    type: text('type').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    durationSeconds: doublePrecision('duration_seconds'),
    /** The size of the JPEG variant once it was made; null until then. */
    jpegSizeBytes: bigint('jpeg_size_bytes', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('media_owner_profile_idx').on(t.ownerId, t.profileId, t.id),
    index('media_owner_idx').on(t.ownerId, t.id),
  ],
);

export type MediaRow = typeof media.$inferSelect;
