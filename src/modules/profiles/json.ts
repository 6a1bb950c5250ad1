/** How the API shows a profile: the schema (validation, OpenAPI) and the one function that renders a row to it. */
import { type Static, Type } from 'typebox';
import { Timestamp } from '../../http/schemas.ts';
import type { profiles } from './tables.ts';

export type Profile = typeof profiles.$inferSelect;

export const ExternalId = Type.String({
  minLength: 1,
  maxLength: 255,
  // Printable ASCII so it fits a header and a path; not shaped like a profile id, so a
  // reference is never ambiguous.
  pattern: '^(?!prf_)[\\x21-\\x7e]+$',
  description: "The owner's own identifier for the client (printable ASCII, not starting with `prf_`).",
});

export const ProfileJson = Type.Object(
  {
    id: Type.String({ description: 'Profile id, `prf_...`.' }),
    name: Type.String(),
    external_id: Type.Union([Type.String(), Type.Null()]),
    is_default: Type.Boolean({ description: 'True for the default profile, which cannot be deleted.' }),
    post_approval_required: Type.Boolean({
      description:
        'Every post made in the profile needs the client\'s approval before it is published (docs/posts.md, Approval), unless the post says `approval: {"required": false}`. False by default.',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Profile', title: 'Profile' },
);
export type ProfileJson = Static<typeof ProfileJson>;

/** The field of a profile's body that makes its posts need approval. */
export const PostApprovalRequired = Type.Boolean({
  description:
    "Every new post of the profile needs the client's approval before it is published, unless the post says otherwise.",
});

/** The `{id}` of every route under /v1/profiles/{id}. */
export const ProfileParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'Profile id or `external_id`.' }),
});

export function renderProfile(p: Profile): ProfileJson {
  return {
    id: p.id,
    name: p.name,
    external_id: p.externalId,
    is_default: p.isDefault,
    post_approval_required: p.postApprovalRequired,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
