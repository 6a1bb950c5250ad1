/**
 * A Google user's business accounts and locations: the Account Management API's accounts.list
 * (the user's own account, `accounts/{userId}`), the Business Information API's
 * accounts.locations.list and locations.get, each with the `readMask` it requires. A location's
 * id is its v4 name, `accounts/{accountId}/locations/{locationId}`.
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { googleRpc as google } from '../google/answers.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { addPage, pagesOf } from '../store/accounts.ts';
import { businessCaller, callerLocation } from './access.ts';

/** The locations a sandbox Google user manages: two, so that the client chooses. */
const LOCATIONS_PER_USER = 2;
/** accounts.list: "The default and maximum is 20"; locations.list: default 10, at most 100. */
const ACCOUNTS_PAGE = { fallback: 20, max: 20 };
const LOCATIONS_PAGE = { fallback: 10, max: 100 };
/** The Location fields a readMask may name here (others are refused, as Google refuses unknown fields). */
const LOCATION_FIELDS = new Set([
  'name',
  'title',
  'storeCode',
  'languageCode',
  'phoneNumbers',
  'categories',
  'storefrontAddress',
  'websiteUri',
  'metadata',
  'profile',
]);

/** Makes the locations of a Google user just made, each with local posts of its own. */
export async function addLocations(store: Store, user: SandboxAccount): Promise<void> {
  for (let n = 1; n <= LOCATIONS_PER_USER; n += 1) {
    const id = `accounts/${user.id}/locations/${randomInt(1, 10)}${Array.from({ length: 18 }, () => randomInt(0, 10)).join('')}`;
    await addPage(
      store,
      user,
      { username: `${user.username}.location${n}`, name: `${user.name} Store ${n}`, instagramBusinessAccountId: null },
      id,
    );
  }
}

function pageSize(raw: string | undefined, { fallback, max }: { fallback: number; max: number }): number {
  if (raw === undefined) return fallback;
  const size = Number(raw);
  if (!Number.isInteger(size) || size < 0)
    throw google.badParameter(`Invalid value at 'page_size' (TYPE_INT32), "${raw}"`);
  return size === 0 ? fallback : Math.min(size, max);
}

/** The fields a `readMask` names, which every location read requires. */
function readMask(raw: string | undefined): Set<string> {
  if (raw === undefined || raw.trim() === '')
    throw google.badParameter("Request contains an invalid argument. 'read_mask' is required.");
  const fields = new Set(raw.split(',').map((f) => f.trim()));
  for (const field of fields)
    if (!LOCATION_FIELDS.has(field)) throw google.badParameter(`Invalid field mask provided: ${field}`);
  return fields;
}

/** A location as the Business Information API renders it: `locations/{id}`, and the fields the mask names. */
function renderLocation(location: SandboxAccount, fields: Set<string>) {
  const all: Record<string, unknown> = {
    name: location.id.slice(location.id.indexOf('/locations/') + 1),
    title: location.name,
    storeCode: location.username,
    languageCode: 'en',
    storefrontAddress: { regionCode: 'US', addressLines: [`${location.followersCount} Sandbox Street`] },
    websiteUri: `https://sandbox.switchboard.invalid/${location.username}`,
    metadata: {
      placeId: `ChIJ${location.id.slice(-12)}`,
      mapsUri: `https://maps.google.com/?cid=${location.id.slice(-12)}`,
    },
  };
  return Object.fromEntries(Object.entries(all).filter(([field]) => fields.has(field)));
}

/** Offset paging: `pageToken` is the index of the page's first item. */
function paged<T>(items: T[], token: string | undefined, size: number): { page: T[]; next: string | undefined } {
  const start = Math.max(0, Number(token ?? 0) || 0);
  const next = start + size < items.length ? String(start + size) : undefined;
  return { page: items.slice(start, start + size), next };
}

export function accountRoutes(app: FastifyInstance, store: Store): void {
  app.get('/v1/accounts', async (request) => {
    const who = await businessCaller(store, request);
    const size = pageSize(param(request, 'pageSize'), ACCOUNTS_PAGE);
    const accounts = [
      {
        name: `accounts/${who.account.id}`,
        accountName: who.account.name,
        type: 'PERSONAL',
        verificationState: 'UNVERIFIED',
        vettedState: 'NOT_VETTED',
      },
    ];
    const { page, next } = paged(accounts, param(request, 'pageToken'), size);
    return { accounts: page, ...(next === undefined ? {} : { nextPageToken: next }) };
  });
}

export function locationRoutes(app: FastifyInstance, store: Store): void {
  app.get('/v1/accounts/:account/locations', async (request) => {
    const who = await businessCaller(store, request);
    const fields = readMask(param(request, 'readMask'));
    const size = pageSize(param(request, 'pageSize'), LOCATIONS_PAGE);
    const { account } = request.params as { account: string };
    // Another user's account: Google answers as if it had none by that name.
    if (account !== who.account.id) throw google.notFound(`accounts/${account}`);
    const { page, next } = paged(await pagesOf(store, who.account.id), param(request, 'pageToken'), size);
    return {
      locations: page.map((l) => renderLocation(l, fields)),
      ...(next === undefined ? {} : { nextPageToken: next }),
    };
  });

  app.get('/v1/locations/:location', async (request) => {
    const who = await businessCaller(store, request);
    const fields = readMask(param(request, 'readMask'));
    const { location } = request.params as { location: string };
    return renderLocation(await callerLocation(store, who, `locations/${location}`), fields);
  });
}
