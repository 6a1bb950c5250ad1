/**
 * Who a handle is and where their account lives, as the AT Protocol resolves it ("Handle",
 * "DID", "OAuth" specs): the handle's DID (DNS TXT `_atproto.<handle>`, or HTTPS
 * `/.well-known/atproto-did`), the DID document (did:plc through the PLC directory, did:web at its
 * host), the PDS it names, and the authorization server the PDS's protected-resource metadata
 * names. Accounts on any PDS resolve so, not only bsky.social's.
 */
import { resolveTxt } from 'node:dns/promises';
import { didWebToUrl, isAtprotoDid, isAtprotoDidWeb, isDidPlc } from '@atproto/did';
import { isValidHandle, normalizeHandle } from '@atproto/syntax';
import { invalidRequest } from '../errors.ts';
import { list, type PlatformResponse, record, str } from '../http.ts';
import { PlatformError } from '../types.ts';
import { type BlueskyApi, platform } from './api.ts';

/** The PLC directory's host ("DID" spec: did:plc is resolved at https://plc.directory). */
const PLC_DIRECTORY = 'https://plc.directory';

/** A handle as typed (`@Alice.bsky.social`), normalized to lower case without the `@`; null when it is not one. */
export function normalHandle(typed: string): string | null {
  const handle = normalizeHandle(typed.trim().replace(/^@/, ''));
  return isValidHandle(handle) ? handle : null;
}

/** A DID of the two methods atproto accounts have ("DID": did:plc, and did:web naming a host without a path). */
export function isDid(value: string): boolean {
  return isAtprotoDid(value);
}

function resolveFailed(what: string, status?: number): PlatformError {
  return new PlatformError(
    status !== undefined && status >= 500 ? 'transient' : 'invalid_request',
    `bluesky: ${what}`,
    {
      platform,
      ...(status === undefined ? {} : { status }),
    },
  );
}

function jsonOf(response: PlatformResponse, what: string): Record<string, unknown> {
  if (response.status !== 200) throw resolveFailed(`${what} answered HTTP ${response.status}`, response.status);
  return record(response.body);
}

/** The handle's DID: its DNS TXT record (live only: the sandbox cannot answer DNS), else its HTTPS well-known. */
export async function handleDid(api: BlueskyApi, handle: string): Promise<string> {
  if (api.live) {
    const records = await resolveTxt(`_atproto.${handle}`).catch(() => [] as string[][]);
    const dids = records.map((chunks) => chunks.join('')).filter((text) => text.startsWith('did='));
    // "Handle": more than one record is a mistake, and none of them is used.
    if (dids.length === 1) {
      const did = (dids[0] as string).slice(4);
      if (isDid(did)) return did;
    }
  }
  const response = await api.get(`https://${handle}/.well-known/atproto-did`);
  const did = response.status === 200 ? response.text.trim() : '';
  if (!isDid(did)) throw resolveFailed(`the handle ${handle} does not resolve to a DID`, response.status);
  return did;
}

export interface Identity {
  did: string;
  /** The handles the DID document claims (`alsoKnownAs` at://…). */
  handles: string[];
  /** The PDS's URL (the `#atproto_pds` service). */
  pds: string;
}

/** The DID document of `did`, read from the PLC directory or the did:web host. */
export async function identityOf(api: BlueskyApi, did: string): Promise<Identity> {
  let url: string;
  if (isDidPlc(did)) url = `${PLC_DIRECTORY}/${did}`;
  // did:web allows a port on localhost for testing; its URL is then http, which the calls refuse.
  else if (isAtprotoDidWeb(did)) url = new URL('/.well-known/did.json', didWebToUrl(did)).href;
  else throw invalidRequest(platform, `not a DID this service resolves: ${did}`);
  const doc = jsonOf(await api.get(url), `the DID document of ${did}`);
  if (doc.id !== did) throw resolveFailed(`the DID document of ${did} names another DID`);
  const handles = list(doc.alsoKnownAs)
    .map((aka) => str(aka) ?? '')
    .filter((aka) => aka.startsWith('at://'))
    .map((aka) => normalizeHandle(aka.slice('at://'.length)));
  const service = list(doc.service)
    .map(record)
    .find((s) => (s.id === '#atproto_pds' || s.id === `${did}#atproto_pds`) && s.type === 'AtprotoPersonalDataServer');
  const pds = str(service?.serviceEndpoint);
  if (pds === null) throw resolveFailed(`the DID document of ${did} names no PDS`);
  return { did, handles, pds: pds.replace(/\/+$/, '') };
}

/** The authorization server the PDS names (its `/.well-known/oauth-protected-resource`). */
export async function authorizationServerOf(api: BlueskyApi, pds: string): Promise<string> {
  const body = jsonOf(await api.get(`${pds}/.well-known/oauth-protected-resource`), `the PDS ${pds}`);
  const issuer = str(list(body.authorization_servers)[0]);
  if (issuer === null) throw resolveFailed(`the PDS ${pds} names no authorization server`);
  return issuer.replace(/\/+$/, '');
}

export interface AuthorizationServer {
  issuer: string;
  parEndpoint: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint: string | null;
}

/** The issuer's metadata (RFC 8414), which must name the same issuer. */
export async function authorizationServer(api: BlueskyApi, issuer: string): Promise<AuthorizationServer> {
  const body = jsonOf(await api.get(`${issuer}/.well-known/oauth-authorization-server`), `the issuer ${issuer}`);
  const named = (field: string) => {
    const value = str(body[field]);
    if (value === null) throw resolveFailed(`the issuer ${issuer} states no ${field}`);
    return value;
  };
  if (named('issuer') !== issuer) throw resolveFailed(`the issuer ${issuer} names itself otherwise`);
  return {
    issuer,
    parEndpoint: named('pushed_authorization_request_endpoint'),
    authorizationEndpoint: named('authorization_endpoint'),
    tokenEndpoint: named('token_endpoint'),
    revocationEndpoint: str(body.revocation_endpoint),
  };
}

/** The handle's account: its DID, which must claim the handle back ("Handle": bidirectional), and its PDS. */
export async function accountOfHandle(api: BlueskyApi, handle: string): Promise<Identity> {
  const identity = await identityOf(api, await handleDid(api, handle));
  if (!identity.handles.includes(handle)) {
    throw resolveFailed(`the DID of ${handle} does not claim that handle`);
  }
  return identity;
}
