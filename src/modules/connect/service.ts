/**
 * Connect links: the owner's redirect origins and brand name, the single-use links, and
 * the trips a client makes from the hosted page to a platform and back (attempts).
 */
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, gt, isNull, lt } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { DAY_MS } from '../../days.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { RequestOrigin } from '../../http/request-origin.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId, newId } from '../../ids.ts';
import type { Platform } from '../../platforms/index.ts';
import { decrypt, encrypt, sha256Hex as sha256 } from '../../secrets.ts';
import { type AccountGrant, connectAccounts, getAccount, reconnectAccount } from '../accounts/index.ts';
import { recordAuditEntry } from '../audit/index.ts';
import { getOwner } from '../owners/index.ts';
import { findProfile, getProfile, type ProfileDeletionStep } from '../profiles/index.ts';
import type { ConnectLink, ConnectSettings, RedirectOrigin } from './json.ts';
import { type ConnectError, normaliseOrigin, redirectUrlOrigin } from './redirect-url.ts';
import { connectAttempts, connectLinks, connectRedirectOrigins, connectSettings } from './tables.ts';

export const LINK_LIFETIME_MS = 30 * 60_000;
export const MAX_REDIRECT_ORIGINS = 50;

export type ConnectAttempt = typeof connectAttempts.$inferSelect;

/** 256 random bits, URL-safe: link tokens and OAuth states cannot be guessed. */
function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Registers an origin; registering one again answers the existing entry (`created: false`). */
export async function addRedirectOrigin(
  db: Db,
  scope: Scope,
  value: string,
): Promise<{ origin: RedirectOrigin; created: boolean }> {
  const origin = normaliseOrigin(value);
  return await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(connectRedirectOrigins)
      .values({ id: newId('redirectOrigin'), ownerId: scope.ownerId, origin, createdAt: now() })
      .onConflictDoNothing()
      .returning();
    if (!inserted) {
      const [existing] = await tx
        .select()
        .from(connectRedirectOrigins)
        .where(and(eq(connectRedirectOrigins.ownerId, scope.ownerId), eq(connectRedirectOrigins.origin, origin)));
      if (!existing) throw new Error('origin insert conflicted but no row has it');
      return { origin: existing, created: false };
    }
    const [total] = await tx
      .select({ n: count() })
      .from(connectRedirectOrigins)
      .where(eq(connectRedirectOrigins.ownerId, scope.ownerId));
    // Checked after the insert, in its transaction: racing registrations cannot pass the limit together.
    if ((total?.n ?? 0) > MAX_REDIRECT_ORIGINS) {
      throw new ApiError(
        422,
        'redirect_origin_limit_reached',
        `At most ${MAX_REDIRECT_ORIGINS} redirect origins can be registered; delete one first.`,
      );
    }
    return { origin: inserted, created: true };
  });
}

export async function listRedirectOrigins(
  db: Db,
  scope: Scope,
  query: { limit: number; after?: string | undefined },
): Promise<RedirectOrigin[]> {
  return await db
    .select()
    .from(connectRedirectOrigins)
    .where(
      and(
        eq(connectRedirectOrigins.ownerId, scope.ownerId),
        query.after === undefined ? undefined : gt(connectRedirectOrigins.id, query.after),
      ),
    )
    .orderBy(asc(connectRedirectOrigins.id))
    .limit(query.limit + 1);
}

function originNotFound(id: string): ApiError {
  return new ApiError(404, 'redirect_origin_not_found', `No redirect origin with id ${JSON.stringify(id)}.`);
}

/** Links made before keep their redirect until they expire (30 minutes at most). */
export async function deleteRedirectOrigin(db: Db, scope: Scope, id: string): Promise<void> {
  if (!looksLikeId('redirectOrigin', id)) throw originNotFound(id);
  const deleted = await db
    .delete(connectRedirectOrigins)
    .where(and(eq(connectRedirectOrigins.ownerId, scope.ownerId), eq(connectRedirectOrigins.id, id)))
    .returning({ id: connectRedirectOrigins.id });
  if (deleted.length === 0) throw originNotFound(id);
}

/** The settings' columns as the API shows them: never the logo's bytes, which GET /v1/connect/settings/logo sends. */
const SETTINGS = {
  brandName: connectSettings.brandName,
  logoWidth: connectSettings.logoWidth,
  logoHeight: connectSettings.logoHeight,
  logoUpdatedAt: connectSettings.logoUpdatedAt,
  updatedAt: connectSettings.updatedAt,
};

interface SettingsRow {
  brandName: string | null;
  logoWidth: number | null;
  logoHeight: number | null;
  logoUpdatedAt: Date | null;
  updatedAt: Date;
}

function settingsOf(row: SettingsRow | undefined): ConnectSettings {
  const logo =
    row?.logoWidth != null && row.logoHeight != null && row.logoUpdatedAt != null
      ? { width: row.logoWidth, height: row.logoHeight, updatedAt: row.logoUpdatedAt }
      : null;
  return { brandName: row?.brandName ?? null, logo, updatedAt: row?.updatedAt ?? null };
}

export async function getConnectSettings(db: Queryable, ownerId: string): Promise<ConnectSettings> {
  const [row] = await db.select(SETTINGS).from(connectSettings).where(eq(connectSettings.ownerId, ownerId));
  return settingsOf(row);
}

export async function updateConnectSettings(
  db: Db,
  scope: Scope,
  patch: { brandName?: string | null | undefined },
): Promise<ConnectSettings> {
  const at = now();
  const set = { ...(patch.brandName !== undefined ? { brandName: patch.brandName } : {}), updatedAt: at };
  const [row] = await db
    .insert(connectSettings)
    .values({ ownerId: scope.ownerId, brandName: patch.brandName ?? null, updatedAt: at })
    .onConflictDoUpdate({ target: connectSettings.ownerId, set })
    .returning(SETTINGS);
  return settingsOf(row);
}

/** What a client report is branded with, in one read of the settings: the name as the connect page shows it, and the logo (PNG) or null. */
export async function reportBrandOf(db: Db, ownerId: string): Promise<{ name: string; logoPng: Buffer | null }> {
  const [row] = await db
    .select({ brandName: connectSettings.brandName, logoPng: connectSettings.logoPng })
    .from(connectSettings)
    .where(eq(connectSettings.ownerId, ownerId));
  return { name: row?.brandName ?? (await getOwner(db, ownerId))?.name ?? '', logoPng: row?.logoPng ?? null };
}

/** The name the connect page shows: the brand name, else the owner's name. */
export async function brandNameOf(db: Db, ownerId: string): Promise<string> {
  const settings = await getConnectSettings(db, ownerId);
  return settings.brandName ?? (await getOwner(db, ownerId))?.name ?? '';
}

/**
 * Creates a link for the profile `ref` names (within the caller's scope). Answers the
 * link and its token, which is in the URL only: the service keeps its hash.
 */
export async function createConnectLink(
  db: Db,
  scope: Scope,
  ref: string,
  input: { redirectUrl: string; state?: string | undefined; platforms?: Platform[] | undefined },
  available: readonly Platform[],
): Promise<{ link: ConnectLink; token: string }> {
  const profile = await getProfile(db, scope, ref);
  await checkRedirectUrl(db, scope, input.redirectUrl);
  refuseUnavailable(input.platforms ?? [], available);
  return await insertLink(db, {
    ownerId: scope.ownerId,
    profileId: profile.id,
    redirectUrl: input.redirectUrl,
    state: input.state ?? null,
    platforms: input.platforms ?? null,
    accountId: null,
  });
}

/**
 * Creates a reconnect link for the account `accountRef` names (within the caller's scope, 404
 * `account_not_found` otherwise), whatever its status: a link of the account's profile that
 * offers only the account's platform and reconnects only that account. Answers the link, its
 * token (in the URL only) and the account.
 */
export async function createReconnectLink(
  db: Db,
  scope: Scope,
  accountRef: string,
  input: { redirectUrl: string; state?: string | undefined },
  available: readonly Platform[],
): Promise<{ link: ConnectLink & { accountId: string }; token: string }> {
  const account = await getAccount(db, scope, accountRef);
  await checkRedirectUrl(db, scope, input.redirectUrl);
  refuseUnavailable([account.platform], available);
  const { link, token } = await insertLink(db, {
    ownerId: scope.ownerId,
    profileId: account.profileId,
    redirectUrl: input.redirectUrl,
    state: input.state ?? null,
    platforms: [account.platform],
    accountId: account.id,
  });
  return { link: { ...link, accountId: account.id }, token };
}

/** A `redirect_url` must be a valid URL under one of the owner's registered origins. */
async function checkRedirectUrl(db: Db, scope: Scope, redirectUrl: string): Promise<void> {
  const origin = redirectUrlOrigin(redirectUrl);
  const [registered] = await db
    .select({ id: connectRedirectOrigins.id })
    .from(connectRedirectOrigins)
    .where(and(eq(connectRedirectOrigins.ownerId, scope.ownerId), eq(connectRedirectOrigins.origin, origin)));
  if (!registered) {
    throw new ApiError(
      422,
      'redirect_origin_not_registered',
      `The origin ${origin} of redirect_url is not registered; add it with POST /v1/connect/redirect-origins.`,
    );
  }
}

function refuseUnavailable(platforms: readonly Platform[], available: readonly Platform[]): void {
  const unavailable = platforms.filter((p) => !available.includes(p));
  if (unavailable.length > 0) {
    throw new ApiError(
      422,
      'platform_not_available',
      `Not available on this service: ${unavailable.join(', ')}. Available: ${available.join(', ')}.`,
    );
  }
}

async function insertLink(
  db: Db,
  values: Pick<ConnectLink, 'ownerId' | 'profileId' | 'redirectUrl' | 'state' | 'platforms' | 'accountId'>,
): Promise<{ link: ConnectLink; token: string }> {
  const token = randomToken();
  const at = now();
  const [link] = await db
    .insert(connectLinks)
    .values({
      id: newId('connectLink'),
      ...values,
      tokenHash: sha256(token),
      createdAt: at,
      expiresAt: new Date(at.getTime() + LINK_LIFETIME_MS),
    })
    .returning();
  if (!link) throw new Error('insert returned no row');
  return { link, token };
}

/** The link a token opens, used or not; undefined for a token no link has. */
export async function findLink(db: Queryable, token: string): Promise<ConnectLink | undefined> {
  const [link] = await db
    .select()
    .from(connectLinks)
    .where(eq(connectLinks.tokenHash, sha256(token)));
  return link;
}

/** True once the link is used or past its 30 minutes: the client gets `error=expired`. */
export function linkIsOver(link: ConnectLink): boolean {
  return link.usedAt !== null || link.expiresAt.getTime() <= now().getTime();
}

/** The platforms the link's page offers. */
export function linkPlatforms(link: ConnectLink, available: readonly Platform[]): Platform[] {
  return available.filter((p) => link.platforms === null || link.platforms.includes(p));
}

/** Trips one link allows: plenty for a person retrying, few enough that nothing piles up. */
export const MAX_ATTEMPTS_PER_LINK = 20;

/**
 * Starts a trip to `platform` through the owner's app `appClientId` (null: the deployment's):
 * answers the OAuth state to send (only its hash is kept), or null once the link has had its
 * share of trips.
 */
export async function startAttempt(
  db: Db,
  link: ConnectLink,
  platform: Platform,
  appClientId: string | null,
): Promise<string | null> {
  const [made] = await db.select({ n: count() }).from(connectAttempts).where(eq(connectAttempts.linkId, link.id));
  if ((made?.n ?? 0) >= MAX_ATTEMPTS_PER_LINK) return null;
  const state = randomToken();
  await db.insert(connectAttempts).values({
    id: newId('connectAttempt'),
    linkId: link.id,
    platform,
    stateHash: sha256(state),
    appClientId,
    createdAt: now(),
  });
  return state;
}

/** The attempt an OAuth state belongs to, with its link, if the state is one the service sent. */
export async function findAttempt(
  db: Queryable,
  state: string,
): Promise<{ attempt: ConnectAttempt; link: ConnectLink } | undefined> {
  const [row] = await db
    .select({ attempt: connectAttempts, link: connectLinks })
    .from(connectAttempts)
    .innerJoin(connectLinks, eq(connectLinks.id, connectAttempts.linkId))
    .where(eq(connectAttempts.stateHash, sha256(state)));
  return row;
}

/** True when `token` is the one of `link` (a browser's cookie must name the attempt's own link). */
export function tokenOpens(link: ConnectLink, token: string): boolean {
  return sha256(token) === link.tokenHash;
}

/** What a login granting pages leaves for the client to choose from. */
export interface PendingPages {
  scopes: string[];
  /** A page without a token of its own (null) is acted on with `login`'s. */
  pages: { id: string; name: string; accessToken: string | null }[];
  /** The login's own token, kept where a page is acted on with it (LinkedIn's organizations); times as ISO strings. */
  login?: HeldLogin;
}

export interface HeldLogin {
  accessToken: string;
  expiresAt: string | null;
  refreshToken?: string;
  refreshExpiresAt?: string | null;
}

export async function holdPages(db: Db, secretKey: Buffer, attemptId: string, pending: PendingPages): Promise<void> {
  await db
    .update(connectAttempts)
    .set({ grantSealed: encrypt(secretKey, JSON.stringify(pending)) })
    .where(eq(connectAttempts.id, attemptId));
}

export function heldPages(secretKey: Buffer, attempt: ConnectAttempt): PendingPages | null {
  return attempt.grantSealed === null ? null : (JSON.parse(decrypt(secretKey, attempt.grantSealed)) as PendingPages);
}

/** The hosted page's request that may use the link: where it came from and which page it was, for the use's audit entry. */
export interface LinkUse {
  origin: RequestOrigin;
  /** The page's method and path (`GET /connect/callback/{platform}`). */
  operation: string;
}

export type Completion = { ok: true; link: ConnectLink; accountIds: string[] } | { ok: false; error: ConnectError };

/**
 * Finishes a link with the accounts a login granted: a connect link connects them all to its
 * profile, a reconnect link reconnects its one account with the one grant. The link's row is
 * locked and marked used in the same transaction as the accounts are saved, so of two
 * completions racing for one link exactly one succeeds; the other gets `expired`. A refusal
 * leaves the link as it was, to be tried again until it expires.
 */
export async function completeLink(
  db: Db,
  secretKey: Buffer,
  linkId: string,
  platform: Platform,
  grants: AccountGrant[],
  use: LinkUse,
): Promise<Completion> {
  return await db.transaction(async (tx) => {
    const [link] = await tx.select().from(connectLinks).where(eq(connectLinks.id, linkId)).for('update');
    if (!link || linkIsOver(link)) return { ok: false, error: 'expired' };
    // A profile deleted since the link was made takes no new accounts.
    if (!(await findProfile(tx, link.ownerId, link.profileId))) return { ok: false, error: 'expired' };
    const saved = await saveGrants(tx, secretKey, link, platform, grants);
    if (!saved.ok) return saved;
    const [used] = await tx
      .update(connectLinks)
      .set({ usedAt: now(), accountIds: saved.accountIds })
      .where(and(eq(connectLinks.id, link.id), isNull(connectLinks.usedAt)))
      .returning();
    if (!used) throw new Error('the locked link was used by someone else');
    // An entry per account: each account's history then shows the link that connected it.
    for (const accountId of saved.accountIds) {
      await recordAuditEntry(tx, {
        ownerId: link.ownerId,
        profileId: link.profileId,
        actor: { type: link.accountId === null ? 'connect_link' : 'reconnect_link', id: link.id },
        via: 'connect_page',
        operation: use.operation,
        objectId: accountId,
        status: 303,
        origin: use.origin,
      });
    }
    // Tokens of a finished link are of no more use to anyone.
    await tx.update(connectAttempts).set({ grantSealed: null }).where(eq(connectAttempts.linkId, link.id));
    return { ok: true, link: used, accountIds: saved.accountIds };
  });
}

async function saveGrants(
  tx: Tx,
  secretKey: Buffer,
  link: ConnectLink,
  platform: Platform,
  grants: AccountGrant[],
): Promise<{ ok: true; accountIds: string[] } | { ok: false; error: ConnectError }> {
  if (link.accountId === null) {
    const result = await connectAccounts(
      tx,
      secretKey,
      { ownerId: link.ownerId, profileId: link.profileId, platform },
      grants,
    );
    return result.ok ? { ok: true, accountIds: result.accounts.map((a) => a.id) } : result;
  }
  const [grant, ...more] = grants;
  if (grant === undefined || more.length > 0) throw new Error('a reconnect link takes exactly one grant');
  const result = await reconnectAccount(
    tx,
    secretKey,
    { ownerId: link.ownerId, profileId: link.profileId, accountId: link.accountId, platform },
    grant,
  );
  if (result.ok) return { ok: true, accountIds: [result.account.id] };
  // An account no longer in the link's profile is out of the link's reach, as a deleted profile is.
  return { ok: false, error: result.error === 'account_gone' ? 'expired' : result.error };
}

/** Links are kept a day past their end (for support questions), then deleted with their trips. */
export const LINK_RETENTION_MS = DAY_MS;

/** The periodic clean-up: answers how many links it deleted. */
export async function deleteOldConnectLinks(db: Db): Promise<number> {
  const deleted = await db
    .delete(connectLinks)
    .where(lt(connectLinks.expiresAt, new Date(now().getTime() - LINK_RETENTION_MS)))
    .returning({ id: connectLinks.id });
  return deleted.length;
}

/** The connect module's part in deleting a profile: its links go, with their trips and held grants. */
export const connectProfileDeletion: ProfileDeletionStep = {
  module: 'connect',
  deleteData: async ({ db }, profile) => {
    await db
      .delete(connectLinks)
      .where(and(eq(connectLinks.ownerId, profile.ownerId), eq(connectLinks.profileId, profile.id)));
  },
};
