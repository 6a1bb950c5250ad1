/**
 * Who a LinkedIn account is, and so whom its posts, uploads and calls name: the member's own
 * profile, stored under the member's URN (`urn:li:person:<id>`), or an organization page, stored
 * under the organization's id as its ACL names it. The kind is what the stored id says LinkedIn's
 * way (a URN names its entity type), never a guess from how an id looks.
 */
import { invalidRequest } from '../errors.ts';

const PERSON_URN = /^urn:li:person:([A-Za-z0-9_-]+)$/;
const ORGANIZATION_ID = /^\d+$/;

/** An organization's URN, which the REST API's fields name it by. */
export const organizationUrn = (id: string) => `urn:li:organization:${id}`;
/** A member's URN: "Can also be referenced as an URN such as urn:li:person:{personId}" (Basic Profile Fields). */
export const personUrn = (id: string) => `urn:li:person:${id}`;

export type LinkedInAuthor =
  | { readonly kind: 'person'; readonly urn: string }
  | { readonly kind: 'organization'; readonly id: string; readonly urn: string };

/** The account `platformUserId` names: the member (their URN) or an organization (its id). */
export function authorOf(platformUserId: string): LinkedInAuthor {
  if (PERSON_URN.test(platformUserId)) return { kind: 'person', urn: platformUserId };
  if (ORGANIZATION_ID.test(platformUserId)) {
    return { kind: 'organization', id: platformUserId, urn: organizationUrn(platformUserId) };
  }
  throw invalidRequest('linkedin', `${platformUserId} names neither a member (urn:li:person:...) nor an organization`);
}

/** Whether the account is the member's own profile. */
export const isPerson = (platformUserId: string): boolean => PERSON_URN.test(platformUserId);
