/**
 * The hosted connect flow's rules: which link a token opens, a browser's trips to a platform
 * and back, the code exchange and the scope check, holding the pages of a login that grants
 * several, and completing the link. The web layer (src/web/connect-pages.ts) renders pages,
 * keeps the cookie and calls these; every answer here says where the client goes next.
 *
 * The OAuth `state` sent to the platform is random per trip; the browser that started the
 * trip keeps it in a cookie with the link's token, and the callback accepts it only with that
 * cookie, so a code obtained by someone else cannot be slipped into a client's link (login CSRF).
 *
 * A reconnect link names one account: its page offers that account's platform only, and only a
 * login of that platform account (on Facebook, one that grants that page) reconnects it.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import type { Db } from '../../db/connection.ts';
import {
  type GrantedTokenSet,
  isPlatform,
  type Platform,
  type PlatformAdapter,
  type PlatformApp,
  PlatformError,
  type PlatformSet,
  type TokenSet,
} from '../../platforms/index.ts';
import { type Account, type AccountGrant, accountInProfile, grantIsOf } from '../accounts/index.ts';
import { ownerAppCredentials, platformsAvailableTo } from '../platform-apps/index.ts';
import type { ConnectLink } from './json.ts';
import { type ConnectError, type Outcome, outcomeUrl } from './redirect-url.ts';
import {
  brandNameOf,
  type ConnectAttempt,
  completeLink,
  findAttempt,
  findLink,
  type HeldLogin,
  heldPages,
  holdPages,
  LINK_LIFETIME_MS,
  type LinkUse,
  linkIsOver,
  linkPlatforms,
  type PendingPages,
  startAttempt,
  tokenOpens,
} from './service.ts';

export interface ConnectFlowDeps {
  db: Db;
  secretKey: Buffer;
  /** A function: the adapters may point at the sandbox this very service serves, known once it listens. */
  platforms: () => PlatformSet;
}

type Log = Pick<Logger, 'info' | 'warn'>;

/** Link tokens and OAuth states are 32 random bytes in base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Who an account is on its platform, as a reconnect link's pages name it. */
export interface AccountName {
  platform: Platform;
  username: string | null;
  displayName: string | null;
  platformUserId: string;
}

/** An open link; for a reconnect link, who the account it reconnects is (as it is now). */
interface OpenLink {
  kind: 'open';
  link: ConnectLink;
  reconnects: AccountName | null;
}

/** The link a token opens, or what the client gets instead. */
export type LinkLookup =
  | { kind: 'unknown' }
  /**
   * Used, past its 30 minutes, or (a reconnect link) its account is no longer in its profile:
   * back to the owner with `error=expired`.
   */
  | { kind: 'over'; redirectUrl: string }
  | OpenLink;

/** Where a trip ends: the owner's redirect URL with the outcome, or a page of ours. */
export type TripEnd =
  | { kind: 'done'; link: ConnectLink; outcome: Outcome; redirectUrl: string }
  /** The login granted pages: the client chooses them on the link's page choice. */
  | { kind: 'choose_pages'; token: string }
  /** The platform failed; nothing was connected and the client may try again. */
  | { kind: 'platform_failed'; platform: Platform; token: string }
  /** The owner changed its app on the platform while the client signed in: nothing was connected; the client may try again. */
  | { kind: 'app_changed'; platform: Platform; token: string }
  /**
   * A reconnect link's login is of another platform account (`signedInAs`, as the platform
   * names it), or on Facebook did not grant the page (`signedInAs` null): nothing was changed.
   * The client may try again, or go back to the owner with `error=account_mismatch` (`redirectUrl`).
   */
  | {
      kind: 'wrong_account';
      link: ConnectLink;
      token: string;
      brand: string;
      expected: AccountName;
      signedInAs: AccountName | null;
      redirectUrl: string;
    };

/** The cookie that binds a browser's trip to `link`. */
export function tripCookieName(link: ConnectLink): string {
  return `sb_connect_${link.id}`;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function done(link: ConnectLink, outcome: Outcome): TripEnd & { kind: 'done' } {
  return { kind: 'done', link, outcome, redirectUrl: outcomeUrl(link.redirectUrl, link.state, outcome) };
}

function failed(link: ConnectLink, error: ConnectError): TripEnd & { kind: 'done' } {
  return done(link, { status: 'error', error });
}

/** The trip this browser is on for `link`, from its cookie (`<state>.<token>`), or null. */
function tripOf(link: ConnectLink, cookie: string | undefined): { state: string; token: string } | null {
  const [state, token] = (cookie ?? '').split('.');
  if (!state || !token || !TOKEN.test(state) || !tokenOpens(link, token)) return null;
  return { state, token };
}

/**
 * The account a reconnect link reconnects, while it is in the link's profile (a link made for
 * one profile never reaches into another); null when it left (moved, or deleted with it).
 */
async function accountOfLink(db: Db, link: ConnectLink & { accountId: string }): Promise<Account | null> {
  return await accountInProfile(db, { ownerId: link.ownerId, profileId: link.profileId }, link.accountId);
}

function nameOf(account: Account): AccountName {
  return {
    platform: account.platform,
    username: account.username,
    displayName: account.displayName,
    platformUserId: account.platformUserId,
  };
}

/** The link a token in a URL opens. */
export async function lookUpLink(db: Db, token: string): Promise<LinkLookup> {
  const link = TOKEN.test(token) ? await findLink(db, token) : undefined;
  if (!link) return { kind: 'unknown' };
  const over: LinkLookup = { kind: 'over', redirectUrl: failed(link, 'expired').redirectUrl };
  if (linkIsOver(link)) return over;
  if (link.accountId === null) return { kind: 'open', link, reconnects: null };
  const account = await accountOfLink(db, { ...link, accountId: link.accountId });
  return account ? { kind: 'open', link, reconnects: nameOf(account) } : over;
}

/**
 * What the link's page shows: the brand, the platforms to choose from, the minutes left, and
 * for a reconnect link the account it reconnects.
 */
export async function linkPage(deps: ConnectFlowDeps, open: Omit<OpenLink, 'kind'>) {
  const { link, reconnects } = open;
  return {
    brand: await brandNameOf(deps.db, link.ownerId),
    platforms: linkPlatforms(link, await platformsAvailableTo(deps.db, deps.platforms(), link.ownerId)),
    minutesLeft: Math.max(1, Math.ceil((link.expiresAt.getTime() - now().getTime()) / 60_000)),
    reconnects,
  };
}

/**
 * What the link page would show the owner's clients now (brand, platforms, a fresh link's
 * minutes), for the dashboard's preview; `platforms` null offers every available one.
 */
export async function previewPage(
  deps: Pick<ConnectFlowDeps, 'db' | 'platforms'>,
  ownerId: string,
  platforms: Platform[] | null,
) {
  const available = await platformsAvailableTo(deps.db, deps.platforms(), ownerId);
  return {
    brand: await brandNameOf(deps.db, ownerId),
    platforms: available.filter((p) => platforms === null || platforms.includes(p)),
    minutesLeft: LINK_LIFETIME_MS / 60_000,
  };
}

/**
 * The adapter a link's trips to `platform` sign in with: the owner's own app there, if it set
 * one (platform-apps), else the deployment's.
 */
async function linkAdapter(
  deps: ConnectFlowDeps,
  ownerId: string,
  platform: Platform,
): Promise<{ adapter: PlatformAdapter; app: PlatformApp | null }> {
  const app = await ownerAppCredentials(deps.db, deps.secretKey, ownerId, platform);
  return { adapter: deps.platforms().adapter(platform, app ?? undefined), app };
}

/**
 * Starts a trip from the link's page to `platform`: the platform's permission page to send
 * the browser to, and the cookie value that binds the trip to this browser.
 */
export async function startTrip(
  deps: ConnectFlowDeps,
  link: ConnectLink,
  token: string,
  platform: string,
  callbackUrl: string,
  log: Log,
  loginHint?: string,
): Promise<
  | { kind: 'not_offered' }
  | { kind: 'too_many_trips' }
  /** The platform could not start the sign-in (a handle that does not resolve): nothing was sent anywhere. */
  | { kind: 'not_started'; platform: Platform; message: string }
  | { kind: 'started'; authorizeUrl: string; cookie: { name: string; value: string } }
> {
  const available = await platformsAvailableTo(deps.db, deps.platforms(), link.ownerId);
  if (!isPlatform(platform) || !linkPlatforms(link, available).includes(platform)) {
    return { kind: 'not_offered' };
  }
  const { adapter, app } = await linkAdapter(deps, link.ownerId, platform);
  const state = await startAttempt(deps.db, link, platform, app?.clientId ?? null);
  if (state === null) {
    log.warn({ link: link.id }, 'connect link has had all its trips; refused another');
    return { kind: 'too_many_trips' };
  }
  const request = { redirectUri: callbackUrl, state, ...(loginHint === undefined ? {} : { loginHint }) };
  let authorizeUrl: string;
  try {
    authorizeUrl =
      adapter.pushAuthorization === undefined
        ? adapter.authorizeUrl(request)
        : await adapter.pushAuthorization(request);
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    log.warn(
      { link: link.id, platform, kind: error.kind, err: error.message },
      'the platform could not start a sign-in',
    );
    return { kind: 'not_started', platform, message: error.message };
  }
  return {
    kind: 'started',
    authorizeUrl,
    cookie: { name: tripCookieName(link), value: `${state}.${token}` },
  };
}

/**
 * The platform sent the browser back to our callback: confirm the trip is this browser's, then
 * exchange the code, check the scopes, and connect the account (or hold the pages for the
 * client to choose). `cookieOf` reads this browser's cookie of a link.
 */
export async function finishTrip(
  deps: ConnectFlowDeps,
  platformName: string,
  query: Record<string, unknown>,
  cookieOf: (name: string) => string | undefined,
  callbackUrl: string,
  log: Log,
  use: LinkUse,
): Promise<TripEnd | { kind: 'unconfirmed' } | { kind: 'unknown' }> {
  // Only platforms this service can use have trips to come back from.
  const { available, ownerAppsOnly } = deps.platforms();
  if (!isPlatform(platformName) || ![...available, ...ownerAppsOnly].includes(platformName)) return { kind: 'unknown' };
  const platform = platformName;
  const callback = deps.platforms().adapter(platform).parseCallback(query);
  const found = callback.state && TOKEN.test(callback.state) ? await findAttempt(deps.db, callback.state) : undefined;
  const trip = found ? tripOf(found.link, cookieOf(tripCookieName(found.link))) : null;
  if (!found || !trip || !sameText(trip.state, callback.state ?? '') || found.attempt.platform !== platform) {
    log.warn({ platform }, 'connect callback without a matching trip from this browser; refused');
    return { kind: 'unconfirmed' };
  }
  const { link, attempt } = found;
  if (linkIsOver(link)) return failed(link, 'expired');
  const target = link.accountId === null ? null : await accountOfLink(deps.db, { ...link, accountId: link.accountId });
  if (link.accountId !== null && target === null) return failed(link, 'expired');
  if (callback.outcome === 'denied') return failed(link, 'access_denied');
  const { adapter, app } = await linkAdapter(deps, link.ownerId, platform);
  // The platform issued the code to the app the trip began with, which alone can exchange it:
  // an owner that set, replaced or removed its app meanwhile sends the client round again.
  const appNow = app?.clientId ?? null;
  if (appNow !== attempt.appClientId) {
    log.warn(
      { link: link.id, platform, tripApp: attempt.appClientId, ownerApp: appNow },
      "the owner changed its platform app during this connect trip; the code was issued to the trip's app, so nothing was exchanged and the client is asked to try again",
    );
    return { kind: 'app_changed', platform, token: trip.token };
  }

  let grants: AccountGrant[];
  try {
    const tokens = await adapter.exchangeCode(callback.code, callbackUrl, trip.state, callback.issuer);
    // The exchange says which scopes were granted, possibly none: an answer, not a reason to ask elsewhere.
    if (lacksRequiredScopes(adapter, tokens.scopes)) return failed(link, 'permission_missing');
    const credentials = { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken };
    if (adapter.pages !== undefined) {
      const pages = await adapter.pages(credentials, tokens.scopes);
      if (pages.length === 0) return failed(link, 'permission_missing');
      if (target !== null) {
        // The link names the page: nothing to choose, and no other page's token is kept.
        const page = pages.find((p) => grantIsOf(target, { platformUserId: p.id }));
        if (!page) {
          log.info({ link: link.id, platform }, 'reconnect link refused a login that does not grant its page');
          return await wrongAccount(deps, link, trip.token, target, null);
        }
        grants = [await pageGrant(adapter, page, tokens.scopes, heldLogin(tokens))];
      } else {
        await holdPages(deps.db, deps.secretKey, attempt.id, {
          scopes: tokens.scopes,
          pages: pages.map((p) => ({ id: p.id, name: p.name, accessToken: p.accessToken })),
          ...(pages.some((p) => p.accessToken === null) ? { login: heldLogin(tokens) } : {}),
        });
        return { kind: 'choose_pages', token: trip.token };
      }
    } else {
      grants = [
        {
          tokens,
          profile: await adapter.profile(credentials),
          ...(app === null ? {} : { ownerAppClientId: app.clientId }),
        },
      ];
    }
  } catch (error) {
    return platformFailed(link, platform, trip.token, error, log);
  }
  const end = await complete(deps, link, platform, grants, log, use);
  if (
    target !== null &&
    end.kind === 'done' &&
    end.outcome.status === 'error' &&
    end.outcome.error === 'account_mismatch'
  ) {
    const [grant] = grants;
    const signedInAs: AccountName | null = grant
      ? {
          platform,
          username: grant.profile.username,
          displayName: grant.profile.name,
          platformUserId: grant.tokens.platformUserId,
        }
      : null;
    return await wrongAccount(deps, link, trip.token, target, signedInAs);
  }
  return end;
}

/** The login's token, as held while the client chooses pages acted on with it. */
function heldLogin(tokens: TokenSet): HeldLogin {
  return {
    accessToken: tokens.accessToken,
    expiresAt: tokens.expiresAt?.toISOString() ?? null,
    ...(tokens.refreshToken === undefined ? {} : { refreshToken: tokens.refreshToken }),
    ...(tokens.refreshExpiresAt === undefined
      ? {}
      : { refreshExpiresAt: tokens.refreshExpiresAt?.toISOString() ?? null }),
  };
}

const dateOf = (iso: string | null | undefined) => (iso === null || iso === undefined ? null : new Date(iso));

/**
 * A page a login granted, as an account's grant: the page's own token, which does not expire
 * (a Facebook page's); or, for a page without one, the login's token with its expiry and refresh
 * token (a LinkedIn organization, acted on with its administrator's token).
 */
async function pageGrant(
  adapter: PlatformAdapter,
  page: { id: string; accessToken: string | null },
  scopes: string[],
  login: HeldLogin | undefined,
): Promise<AccountGrant> {
  let tokens: GrantedTokenSet;
  if (page.accessToken !== null) {
    tokens = { accessToken: page.accessToken, expiresAt: null, platformUserId: page.id, scopes };
  } else {
    if (login === undefined) throw new Error(`page ${page.id} has no token of its own and no login was held`);
    tokens = {
      accessToken: login.accessToken,
      expiresAt: dateOf(login.expiresAt),
      ...(login.refreshToken === undefined ? {} : { refreshToken: login.refreshToken }),
      ...(login.refreshExpiresAt === undefined ? {} : { refreshExpiresAt: dateOf(login.refreshExpiresAt) }),
      platformUserId: page.id,
      scopes,
    };
  }
  return {
    tokens,
    profile: await adapter.profile({ platformUserId: page.id, accessToken: tokens.accessToken }),
  };
}

async function wrongAccount(
  deps: ConnectFlowDeps,
  link: ConnectLink,
  token: string,
  target: Account,
  signedInAs: AccountName | null,
): Promise<TripEnd> {
  return {
    kind: 'wrong_account',
    link,
    token,
    brand: await brandNameOf(deps.db, link.ownerId),
    expected: nameOf(target),
    signedInAs,
    redirectUrl: failed(link, 'account_mismatch').redirectUrl,
  };
}

function lacksRequiredScopes(adapter: PlatformAdapter, granted: readonly string[]): boolean {
  return adapter.scopes.required.some((scope) => !granted.includes(scope));
}

/** The pages this browser's trip on `link` left to choose from, or null when it left none. */
export async function pendingPages(
  deps: ConnectFlowDeps,
  link: ConnectLink,
  cookieOf: (name: string) => string | undefined,
): Promise<{ attempt: ConnectAttempt; held: PendingPages } | null> {
  const trip = tripOf(link, cookieOf(tripCookieName(link)));
  const found = trip ? await findAttempt(deps.db, trip.state) : undefined;
  if (!found || found.link.id !== link.id) return null;
  const held = heldPages(deps.secretKey, found.attempt);
  return held ? { attempt: found.attempt, held } : null;
}

/**
 * The client chose pages (or cancelled): every chosen page becomes an account of the link's
 * profile. Choosing none is asked again.
 */
export async function choosePages(
  deps: ConnectFlowDeps,
  link: ConnectLink,
  token: string,
  pending: { attempt: ConnectAttempt; held: PendingPages },
  choice: { cancel: boolean; pageIds: readonly string[] },
  log: Log,
  use: LinkUse,
): Promise<TripEnd | { kind: 'none_chosen' }> {
  if (choice.cancel) return failed(link, 'access_denied');
  const chosen = new Set(choice.pageIds);
  const pages = pending.held.pages.filter((p) => chosen.has(p.id));
  if (pages.length === 0) return { kind: 'none_chosen' };
  // Written only with a Platform (startAttempt).
  const platform = pending.attempt.platform;
  const adapter = deps.platforms().adapter(platform);
  let grants: AccountGrant[];
  try {
    grants = await Promise.all(pages.map((page) => pageGrant(adapter, page, pending.held.scopes, pending.held.login)));
  } catch (error) {
    return platformFailed(link, platform, token, error, log);
  }
  return await complete(deps, link, platform, grants, log, use);
}

async function complete(
  deps: ConnectFlowDeps,
  link: ConnectLink,
  platform: Platform,
  grants: AccountGrant[],
  log: Log,
  use: LinkUse,
): Promise<TripEnd> {
  const completion = await completeLink(deps.db, deps.secretKey, link.id, platform, grants, use);
  if (!completion.ok) {
    log.info({ link: link.id, platform, error: completion.error }, 'connect link refused the accounts');
    return failed(link, completion.error);
  }
  log.info({ link: link.id, platform, accounts: completion.accountIds }, 'connect link used');
  return done(link, { status: 'connected', profileId: link.profileId, accountIds: completion.accountIds });
}

function platformFailed(link: ConnectLink, platform: Platform, token: string, error: unknown, log: Log): TripEnd {
  if (!(error instanceof PlatformError)) throw error;
  log.warn(
    { link: link.id, platform, kind: error.kind, detail: error.detail, err: error.message },
    'platform call failed during a connection; the client may try again',
  );
  return { kind: 'platform_failed', platform, token };
}
