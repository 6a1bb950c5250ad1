import type { Queryable } from '../../db/connection.ts';
import { startupRegistry } from '../../registry.ts';

/**
 * How the audit log learns the profile of what a change addresses by its path
 * (`/v1/posts/{id}/...`), from the module that owns those objects: the answer does not always
 * say (a deletion's 204 has no body), and the owner key's request names no profile.
 */
export interface ProfileOfObjects {
  /** The path's first segment after /v1/ (`posts` for `/v1/posts/{id}` and the paths under it). */
  collection: string;
  /** The profile of the owner's object with this id; null when it belongs to no profile or is not the owner's. */
  profileOf(db: Queryable, ownerId: string, id: string): Promise<string | null>;
}

const readers = startupRegistry<ProfileOfObjects>('audit profile readers');

export function registerProfileOfObjects(reader: ProfileOfObjects): void {
  readers.register(reader);
}

export function profileReaderOf(collection: string): ProfileOfObjects | undefined {
  return readers.items().find((reader) => reader.collection === collection);
}
