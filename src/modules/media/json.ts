/** How the API shows a medium: the schema (validation, OpenAPI) and the one function that renders a row to it. */
import { type Static, Type } from 'typebox';
import { Timestamp } from '../../http/schemas.ts';
import type { MediaRow } from './tables.ts';

export const MediaJson = Type.Object(
  {
    id: Type.String({ description: 'Media id, `media_...`.' }),
    profile_id: Type.String({ description: 'The profile the medium belongs to; posts of that profile may use it.' }),
    type: Type.Union([Type.Literal('image'), Type.Literal('video'), Type.Literal('document')], {
      description:
        'What the file is: `document` is a PDF, which only platforms whose catalogue kinds hold `document` (LinkedIn) publish; a post with one to another platform is refused with 400 `validation_failed`.',
    }),
    mime_type: Type.Union(
      ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'video/mp4', 'video/quicktime', 'application/pdf'].map(
        (m) => Type.Literal(m),
      ),
      { description: "Read from the file's bytes, never from its name or the Content-Type it was sent with." },
    ),
    size_bytes: Type.Integer({ minimum: 0 }),
    width: Type.Union([Type.Integer(), Type.Null()], {
      description: 'In pixels, as displayed (after EXIF rotation); null for documents.',
    }),
    height: Type.Union([Type.Integer(), Type.Null()], {
      description: 'In pixels, as displayed (after EXIF rotation); null for documents.',
    }),
    duration_seconds: Type.Union([Type.Number(), Type.Null()], {
      description: 'Videos only; null for images and documents.',
    }),
    created_at: Timestamp,
  },
  { $id: 'Media', title: 'Media' },
);

export type MediaJsonShape = Static<typeof MediaJson>;

export function renderMedia(row: MediaRow): MediaJsonShape {
  return {
    id: row.id,
    profile_id: row.profileId,
    type: row.type as MediaJsonShape['type'],
    mime_type: row.mimeType as MediaJsonShape['mime_type'],
    size_bytes: row.sizeBytes,
    width: row.width,
    height: row.height,
    duration_seconds: row.durationSeconds,
    created_at: row.createdAt.toISOString(),
  };
}
