/**
 * A Google user's business locations, each becoming an account: the accounts they reach
 * (Account Management API, accounts.list), then each account's locations (Business Information
 * API, accounts.locations.list with a readMask). An account is named by the location's v4
 * resource name, `accounts/{accountId}/locations/{locationId}`, which the local posts' calls take.
 */
import type { GoogleClient } from '../google/oauth.ts';
import { type AdapterContext, list, record, str } from '../http.ts';
import type { AccountCredentials, PageGrant, PlatformProfile } from '../types.ts';

/** The largest page of either list ("The maximum page size is 20" for accounts, 100 for locations). */
const ACCOUNTS_PAGE = 20;
const LOCATIONS_PAGE = 100;
/** Pages read at most of each list: far more than a Google user manages. */
const MAX_PAGES = 20;
/** The fields a location is read with. */
const READ_MASK = 'name,title,storefrontAddress,metadata';

export interface GoogleBusinessContext extends AdapterContext {
  readonly google: GoogleClient;
}

/** Every item of a paged Google list (`items` its field, `nextPageToken` its next page). */
async function allPages(
  { google }: GoogleBusinessContext,
  url: string,
  accessToken: string,
  field: string,
  query: Record<string, string | number>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let pageToken: string | null = null;
  for (let n = 0; n < MAX_PAGES; n += 1) {
    const answer = await google.api('GET', url, accessToken, {
      query: { ...query, ...(pageToken === null ? {} : { pageToken }) },
    });
    items.push(...list(answer[field]).map(record));
    pageToken = str(answer.nextPageToken);
    if (pageToken === null || pageToken === '') break;
  }
  return items;
}

/** `locations/{id}` as the Business Information API names it, under its account: the v4 name. */
function locationName(account: string, location: string): string {
  return `${account}/${location}`;
}

/** The location part of a v4 name (`locations/{id}`), which the Business Information API takes. */
function locationOf(name: string): string {
  return name.slice(name.indexOf('/locations/') + 1);
}

export async function googleBusinessLocations(
  context: GoogleBusinessContext,
  { accessToken }: AccountCredentials,
): Promise<PageGrant[]> {
  const { google } = context;
  const accounts = await allPages(
    context,
    google.url('mybusinessaccountmanagement.googleapis.com', '/v1/accounts'),
    accessToken,
    'accounts',
    { pageSize: ACCOUNTS_PAGE },
  );
  const pages: PageGrant[] = [];
  for (const account of accounts) {
    const accountName = str(account.name);
    if (accountName === null) continue;
    const locations = await allPages(
      context,
      google.url('mybusinessbusinessinformation.googleapis.com', `/v1/${accountName}/locations`),
      accessToken,
      'locations',
      { readMask: READ_MASK, pageSize: LOCATIONS_PAGE },
    );
    for (const location of locations) {
      const name = str(location.name);
      if (name === null) continue;
      const id = locationName(accountName, name);
      // A location reached through two accounts (a group and its owner) is one account here.
      if (pages.some((p) => p.id === id || locationOf(p.id) === name)) continue;
      // Acted on with the login's own token: Google has no token per location.
      pages.push({
        id,
        name: str(location.title) ?? name,
        avatarUrl: null,
        accessToken: null,
        instagramBusinessAccountId: null,
      });
    }
  }
  return pages;
}

export async function googleBusinessProfile(
  { google }: GoogleBusinessContext,
  { platformUserId, accessToken }: AccountCredentials,
): Promise<PlatformProfile> {
  const location = await google.api(
    'GET',
    google.url('mybusinessbusinessinformation.googleapis.com', `/v1/${locationOf(platformUserId)}`),
    accessToken,
    { query: { readMask: READ_MASK } },
  );
  return {
    id: platformUserId,
    // A location has no handle, picture or followers of its own in these APIs.
    username: null,
    name: str(location.title),
    avatarUrl: null,
    followersCount: null,
  };
}
