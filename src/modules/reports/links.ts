/**
 * Report links: a read-only page of one profile's report for a client without an account, over
 * a period fixed when the link is made. Only the token's hash is kept; a link works until it
 * expires or is revoked, and each opening is counted on it.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { DAY_MS, dayNumber, dayOf, dayText } from '../../days.ts';
import type { Db, Queryable } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId, newId } from '../../ids.ts';
import { sha256Hex } from '../../secrets.ts';
import { findProfile, getProfile } from '../profiles/index.ts';
import { ofProfile } from './of-profile.ts';
import { periodOf, type ReportQuery } from './service.ts';
import { type ReportLink, reportLinks } from './tables.ts';

export const DEFAULT_LINK_DAYS = 30;
export const MAX_LINK_DAYS = 90;

/** The period a stored row (a link, a send) reports, as day numbers: its dates are real days, as stored. */
export function storedPeriod(row: { periodFrom: string; periodTo: string }): { from: number; to: number } {
  return { from: dayNumber(row.periodFrom) as number, to: dayNumber(row.periodTo) as number };
}

/** Where a link's page is: the token is its only key. */
export const reportPagePath = (token: string) => `/reports/${token}`;

export type ReportLinkState = 'open' | 'expired' | 'revoked';

export function linkState(link: ReportLink, at: Date): ReportLinkState {
  if (link.revokedAt !== null) return 'revoked';
  return link.expiresAt.getTime() <= at.getTime() ? 'expired' : 'open';
}

/** A new link to the profile `ref` names (as the caller sees it), over the period asked (as the report takes it). */
export async function createReportLink(
  db: Db,
  scope: Scope,
  ref: string,
  input: ReportQuery & { expiresInDays?: number | undefined },
): Promise<{ link: ReportLink; token: string }> {
  const period = periodOf(input, dayOf(now()));
  const profile = await getProfile(db, scope, ref);
  return await insertReportLink(db, profile, period, input.expiresInDays ?? DEFAULT_LINK_DAYS);
}

/** A new link to the profile's report over `period` (day numbers), working for `days` days from now. */
export async function insertReportLink(
  db: Queryable,
  profile: { ownerId: string; id: string },
  period: { from: number; to: number },
  days: number,
): Promise<{ link: ReportLink; token: string }> {
  const at = now();
  const token = randomBytes(32).toString('base64url');
  const [link] = await db
    .insert(reportLinks)
    .values({
      id: newId('reportLink'),
      ownerId: profile.ownerId,
      profileId: profile.id,
      tokenHash: sha256Hex(token),
      periodFrom: dayText(period.from),
      periodTo: dayText(period.to),
      expiresAt: new Date(at.getTime() + days * DAY_MS),
      createdAt: at,
    })
    .returning();
  if (link === undefined) throw new Error('the report link was not stored');
  return { link, token };
}

/** A page of the profile's links, newest first. */
export async function listReportLinks(
  db: Db,
  scope: Scope,
  ref: string,
  page: { limit: number; before?: string | undefined },
): Promise<ReportLink[]> {
  const profile = await getProfile(db, scope, ref);
  return await db
    .select()
    .from(reportLinks)
    .where(
      and(ofProfile(reportLinks, profile), page.before === undefined ? undefined : lt(reportLinks.id, page.before)),
    )
    .orderBy(desc(reportLinks.id))
    .limit(page.limit + 1);
}

/** Revokes a link of the profile: it opens nothing from then on. Revoking twice changes nothing. */
export async function revokeReportLink(db: Db, scope: Scope, ref: string, id: string): Promise<ReportLink> {
  const profile = await getProfile(db, scope, ref);
  const notFound = new ApiError(404, 'report_link_not_found', `No report link ${JSON.stringify(id)} of this profile.`);
  if (!looksLikeId('reportLink', id)) throw notFound;
  const mine = and(eq(reportLinks.id, id), ofProfile(reportLinks, profile));
  const [revoked] = await db
    .update(reportLinks)
    .set({ revokedAt: sql`coalesce(${reportLinks.revokedAt}, ${now()})` })
    .where(mine)
    .returning();
  if (revoked === undefined) throw notFound;
  return revoked;
}

export type OpenedLink =
  | { kind: 'open'; link: ReportLink; profile: { ownerId: string; id: string; name: string } }
  | { kind: 'closed'; state: 'expired' | 'revoked' }
  | { kind: 'unknown' };

/**
 * The link a token opens, counted as opened when it still works (and its profile still
 * exists); else why not. `count: false` looks without counting (the page's PDF and logo,
 * fetched from an opened page).
 */
export async function openReportLink(db: Db, token: string, count: boolean): Promise<OpenedLink> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { kind: 'unknown' };
  const at = now();
  const hash = sha256Hex(token);
  // Counted in the statement that checks the link still works: an opening racing a revocation
  // is either before it (counted, shown) or after it (neither).
  const [counted] = count
    ? await db
        .update(reportLinks)
        .set({
          opens: sql`${reportLinks.opens} + 1`,
          firstOpenedAt: sql`coalesce(${reportLinks.firstOpenedAt}, ${at})`,
          lastOpenedAt: sql`greatest(${reportLinks.lastOpenedAt}, ${at})`,
        })
        .where(and(eq(reportLinks.tokenHash, hash), isNull(reportLinks.revokedAt), gt(reportLinks.expiresAt, at)))
        .returning()
    : [];
  const link = counted ?? (await db.select().from(reportLinks).where(eq(reportLinks.tokenHash, hash)))[0];
  if (link === undefined) return { kind: 'unknown' };
  const state = linkState(link, at);
  if (state !== 'open') return { kind: 'closed', state };
  // A profile being deleted is gone, with its links.
  const profile = await findProfile(db, link.ownerId, link.profileId);
  if (profile === undefined) return { kind: 'unknown' };
  return { kind: 'open', link, profile };
}
