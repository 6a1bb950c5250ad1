/** How the API shows a profile API key: the schemas and the one function that renders a key to them. */
import { type Static, Type } from 'typebox';
import { Timestamp } from '../../http/schemas.ts';
import type { ApiKeyRecord } from './service.ts';

const keyFields = {
  id: Type.String({ description: 'Key id, `key_...` (not the key).' }),
  profile_id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  key_start: Type.String({ description: 'The first characters of the key, to tell keys apart.' }),
  created_at: Timestamp,
};
export const ApiKeyJson = Type.Object(keyFields, { $id: 'ApiKey', title: 'ApiKey' });
export const CreatedApiKeyJson = Type.Object(
  { ...keyFields, key: Type.String({ description: 'The key itself. Shown this once only; store it now.' }) },
  { $id: 'CreatedApiKey', title: 'CreatedApiKey' },
);

/** A profile key as the API shows it (only profile keys are listed through the API). */
export function renderKey(k: ApiKeyRecord): Static<typeof ApiKeyJson> {
  return {
    id: k.id,
    profile_id: k.profileId ?? '',
    name: k.name,
    key_start: k.keyStart,
    created_at: k.createdAt.toISOString(),
  };
}

/** A new key with the key itself, shown this once. */
export function renderCreatedKey(k: ApiKeyRecord & { key: string }): Static<typeof CreatedApiKeyJson> {
  return { ...renderKey(k), key: k.key };
}
