/** What a permission page grants: single-use codes, then the tokens calls carry (and what they let through). */
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { preparedPerDb } from '../../db/prepared.ts';
import type { Store } from '../platform.ts';
import {
  type SandboxAccount,
  type SandboxCode,
  type SandboxToken,
  sandboxAccounts,
  sandboxCodes,
  sandboxTokens,
} from '../schema.ts';
import { pagesOf } from './accounts.ts';
import { faultSetFor } from './faults.ts';
import { opaqueString } from './ids.ts';
import { allSettings, type SettingValues } from './settings.ts';

export async function issueCode(
  store: Store,
  values: {
    platform: string;
    clientId: string;
    redirectUri: string;
    accountId: string;
    scopes: string[];
    pageIds?: string[];
  },
  ttlMs: number,
): Promise<string> {
  const code = opaqueString('');
  await store.db.insert(sandboxCodes).values({
    code,
    ...values,
    pageIds: values.pageIds ?? [],
    expiresAt: new Date(store.now().getTime() + ttlMs),
  });
  return code;
}

/** Uses the code once: null when unknown, used, expired, or issued to another client or redirect URI. */
export async function redeemCode(
  store: Store,
  values: { platform: string; code: string; clientId: string; redirectUri: string },
): Promise<SandboxCode | null> {
  const now = store.now();
  const [row] = await store.db
    .update(sandboxCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(sandboxCodes.code, values.code),
        eq(sandboxCodes.platform, values.platform),
        eq(sandboxCodes.clientId, values.clientId),
        eq(sandboxCodes.redirectUri, values.redirectUri),
        isNull(sandboxCodes.usedAt),
        sql`${sandboxCodes.expiresAt} > ${now}`,
      ),
    )
    .returning();
  return row ?? null;
}

/** A code as it was issued, whatever became of it (a platform tells a used code from an expired one). */
export async function findCode(store: Store, code: string): Promise<SandboxCode | undefined> {
  const [row] = await store.db.select().from(sandboxCodes).where(eq(sandboxCodes.code, code));
  return row;
}

export async function issueToken(
  store: Store,
  values: {
    platform: string;
    accountId: string;
    kind: 'short' | 'long' | 'refresh' | 'page';
    clientId: string;
    scopes: string[];
    pageIds?: string[];
    prefix: string;
  },
  ttlMs: number | null,
): Promise<SandboxToken> {
  const now = store.now();
  const [row] = await store.db
    .insert(sandboxTokens)
    .values({
      token: opaqueString(values.prefix),
      platform: values.platform,
      accountId: values.accountId,
      kind: values.kind,
      clientId: values.clientId,
      scopes: values.scopes,
      pageIds: values.pageIds ?? [],
      issuedAt: now,
      expiresAt: ttlMs === null ? null : new Date(now.getTime() + ttlMs),
    })
    .returning();
  return row as SandboxToken;
}

/** The token and its account (a token exchange's, a refresh's): the caller's read, of which the rest is not needed. */
export async function findToken(
  store: Store,
  token: string,
): Promise<{ token: SandboxToken; account: SandboxAccount } | null> {
  const found = await findCaller(store, token);
  return found && { token: found.token, account: found.account };
}

export interface FoundCaller {
  token: SandboxToken;
  account: SandboxAccount;
  /** Whether any fault is set for the account or its parent, whatever it waits for. */
  faultSet: boolean;
  settings: SettingValues;
}

/**
 * The token with its account, and what every call's checks read beside it: whether a fault is
 * set for the account (or its parent) and the switches' values. One statement for all of them:
 * the sandbox answers on the machine of the service that calls it, where each round trip to
 * PostgreSQL is CPU the service does not get (a real platform spends its own).
 */
export async function findCaller(store: Store, token: string): Promise<FoundCaller | null> {
  const [row] = await callerByToken(store.db).execute({ token });
  return row ?? null;
}

/** Prepared: every call a sandbox platform answers reads its token first. */
const callerByToken = preparedPerDb((db) =>
  db
    .select({
      token: sandboxTokens,
      account: sandboxAccounts,
      faultSet: faultSetFor(sandboxAccounts.id, sandboxAccounts.parentId),
      settings: allSettings,
    })
    .from(sandboxTokens)
    .innerJoin(sandboxAccounts, eq(sandboxAccounts.id, sandboxTokens.accountId))
    .where(eq(sandboxTokens.token, sql.placeholder('token')))
    .prepare('sandbox_caller_by_token'),
);

/** The user's tokens and its pages' tokens: expired now (`expire`) or revoked (`revoke`). */
export async function endTokens(store: Store, account: SandboxAccount, how: 'expire' | 'revoke'): Promise<number> {
  const now = store.now();
  const pageIds = (await pagesOf(store, account.id)).map((p) => p.id);
  const ids = [account.id, ...pageIds];
  const live = and(inArray(sandboxTokens.accountId, ids), isNull(sandboxTokens.revokedAt));
  const rows =
    how === 'revoke'
      ? await store.db.update(sandboxTokens).set({ revokedAt: now }).where(live).returning()
      : await store.db
          .update(sandboxTokens)
          .set({ expiresAt: new Date(now.getTime() - 1000) })
          .where(and(live, or(isNull(sandboxTokens.expiresAt), sql`${sandboxTokens.expiresAt} > ${now}`)))
          .returning();
  return rows.length;
}

/** Whether the user holds a live token granting `scope` (of any app the sandbox issued tokens to). */
export async function holdsLiveScope(store: Store, accountId: string, scope: string): Promise<boolean> {
  const now = store.now();
  const [row] = await store.db
    .select({ token: sandboxTokens.token })
    .from(sandboxTokens)
    .where(
      and(
        eq(sandboxTokens.accountId, accountId),
        isNull(sandboxTokens.revokedAt),
        or(isNull(sandboxTokens.expiresAt), gt(sandboxTokens.expiresAt, now)),
        sql`${scope} = any(${sandboxTokens.scopes})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Ends a live token of this kind, platform and client in one statement, so of two uses racing
 * with the same token (a rotating refresh token) only one wins. Null when it is not live.
 */
export async function claimToken(
  store: Store,
  values: { token: string; platform: string; kind: SandboxToken['kind']; clientId: string },
): Promise<SandboxToken | null> {
  const now = store.now();
  const [row] = await store.db
    .update(sandboxTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sandboxTokens.token, values.token),
        eq(sandboxTokens.platform, values.platform),
        eq(sandboxTokens.kind, values.kind),
        eq(sandboxTokens.clientId, values.clientId),
        isNull(sandboxTokens.revokedAt),
        gt(sandboxTokens.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Disconnects the app `clientId` from the user `token` names: every live token of that user
 * for that app ends. The user and how many tokens ended; null when the token is unknown or
 * another app's.
 */
export async function revokeAppGrant(
  store: Store,
  values: { token: string; platform: string; clientId: string },
): Promise<{ accountId: string; ended: number } | null> {
  const [row] = await store.db
    .select()
    .from(sandboxTokens)
    .where(and(eq(sandboxTokens.token, values.token), eq(sandboxTokens.platform, values.platform)));
  if (!row || row.clientId !== values.clientId) return null;
  const ended = await store.db
    .update(sandboxTokens)
    .set({ revokedAt: store.now() })
    .where(
      and(
        eq(sandboxTokens.platform, values.platform),
        eq(sandboxTokens.accountId, row.accountId),
        eq(sandboxTokens.clientId, values.clientId),
        isNull(sandboxTokens.revokedAt),
      ),
    )
    .returning();
  return { accountId: row.accountId, ended: ended.length };
}

/**
 * A refresh token a platform's token endpoint takes: known, of `platform` and of the app
 * `clientId`, neither revoked nor past its end; null otherwise (the platform's `invalid_grant`).
 */
export async function findLiveRefreshToken(
  store: Store,
  token: string,
  { platform, clientId }: { platform: string; clientId: string },
): Promise<{ token: SandboxToken; account: SandboxAccount } | null> {
  const found = await findToken(store, token);
  const now = store.now();
  if (
    !found ||
    found.token.platform !== platform ||
    found.token.kind !== 'refresh' ||
    found.token.clientId !== clientId ||
    found.token.revokedAt !== null ||
    (found.token.expiresAt !== null && found.token.expiresAt <= now)
  ) {
    return null;
  }
  return found;
}
