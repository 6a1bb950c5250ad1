import { typeid } from 'typeid-js';
import { v7 as uuidV7 } from 'uuid';

/**
 * Resource ids are TypeIDs: a readable prefix and a UUIDv7 in base32, so they sort by
 * creation time and tell what they name (`prf_01jd...`). Event and delivery ids are
 * plain UUIDs, as the spec requires: version 7 too, whose first bits are the time, so that the
 * many rows keyed by them go to the end of their index (switchboard_uuid_v7() in the database).
 */
export const ID_PREFIXES = {
  owner: 'own',
  profile: 'prf',
  apiKey: 'key',
  webhookEndpoint: 'we',
  account: 'acc',
  redirectOrigin: 'ro',
  connectLink: 'cl',
  connectAttempt: 'ca',
  post: 'post',
  postTarget: 'pt',
  approvalLink: 'apl',
  media: 'media',
  comment: 'cmt',
  commentReply: 'crp',
  session: 'ses',
  auditEntry: 'aud',
  member: 'mem',
  memberToken: 'mtk',
  reportLink: 'rpl',
  reportSchedule: 'rps',
  reportSend: 'rsd',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export function newId(kind: IdKind): string {
  return typeid(ID_PREFIXES[kind]).toString();
}

export function newUuid(): string {
  return uuidV7();
}

const TYPEID_SUFFIX = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

/** True when `value` has the shape of an id of `kind` (it may still name nothing). */
export function looksLikeId(kind: IdKind, value: string): boolean {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return value.startsWith(prefix) && TYPEID_SUFFIX.test(value.slice(prefix.length));
}
