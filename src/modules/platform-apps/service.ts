/**
 * Owners' own apps on the platforms that take one: set, listed, deleted, and the credentials
 * the accounts module connects and refreshes an owner's accounts with.
 */
import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Queryable } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import {
  isPlatform,
  PLATFORMS,
  type Platform,
  type PlatformApp,
  type PlatformSet,
  platformInfo,
} from '../../platforms/index.ts';
import { decrypt, encrypt } from '../../secrets.ts';
import type { OwnerApp } from './json.ts';
import { type PlatformAppRow, platformApps } from './tables.ts';

/** The platforms an owner may bring its own app to. */
export const OWNER_APP_PLATFORMS: readonly Platform[] = PLATFORMS.filter((p) => platformInfo(p).ownerApps === true);

/**
 * The platform a path names, if it takes owner apps: an unknown name is 404
 * `platform_not_found` (as GET /v1/platforms/{platform}), a platform taking none 422
 * `unsupported_platform`.
 */
export function ownerAppPlatform(name: string): Platform {
  if (!isPlatform(name)) {
    throw new ApiError(
      404,
      'platform_not_found',
      `No platform ${JSON.stringify(name)}; the platforms are ${PLATFORMS.join(', ')}.`,
      {
        platforms: [...PLATFORMS],
      },
    );
  }
  if (!OWNER_APP_PLATFORMS.includes(name)) {
    throw new ApiError(
      422,
      'unsupported_platform',
      `${platformInfo(name).label} takes no owner app: its accounts use this service's app. Owner apps are taken on ${OWNER_APP_PLATFORMS.join(', ')}.`,
      { platforms: [...OWNER_APP_PLATFORMS] },
    );
  }
  return name;
}

function shown(row: PlatformAppRow): OwnerApp {
  return { platform: row.platform, clientId: row.clientId, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** Sets the owner's app on `platform`, replacing the one there; `created` when there was none. */
export async function setOwnerApp(
  db: Db,
  secretKey: Buffer,
  ownerId: string,
  platform: Platform,
  app: PlatformApp,
): Promise<{ app: OwnerApp; created: boolean }> {
  const at = now();
  const sealed = encrypt(secretKey, app.clientSecret);
  const [row] = await db
    .insert(platformApps)
    .values({ ownerId, platform, clientId: app.clientId, clientSecretSealed: sealed, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [platformApps.ownerId, platformApps.platform],
      set: { clientId: app.clientId, clientSecretSealed: sealed, updatedAt: at },
    })
    // xmax is 0 on a row this statement inserted, not on one it updated.
    .returning({ ...getTableColumns(platformApps), inserted: sql<boolean>`xmax = 0` });
  if (!row) throw new Error('the platform app was not saved');
  return { app: shown(row), created: row.inserted };
}

export async function listOwnerApps(db: Db, ownerId: string): Promise<OwnerApp[]> {
  const rows = await db
    .select()
    .from(platformApps)
    .where(eq(platformApps.ownerId, ownerId))
    .orderBy(asc(platformApps.platform));
  return rows.map(shown);
}

export async function deleteOwnerApp(db: Db, ownerId: string, platform: Platform): Promise<void> {
  const deleted = await db
    .delete(platformApps)
    .where(and(eq(platformApps.ownerId, ownerId), eq(platformApps.platform, platform)))
    .returning({ platform: platformApps.platform });
  if (deleted.length === 0) {
    throw new ApiError(404, 'platform_app_not_found', `This owner has set no ${platformInfo(platform).label} app.`);
  }
}

/** The owner's app on `platform` with its secret, to connect and refresh its accounts with; null: none set. */
export async function ownerAppCredentials(
  db: Queryable,
  secretKey: Buffer,
  ownerId: string,
  platform: Platform,
): Promise<PlatformApp | null> {
  if (!OWNER_APP_PLATFORMS.includes(platform)) return null;
  const [row] = await db
    .select({ clientId: platformApps.clientId, sealed: platformApps.clientSecretSealed })
    .from(platformApps)
    .where(and(eq(platformApps.ownerId, ownerId), eq(platformApps.platform, platform)));
  return row ? { clientId: row.clientId, clientSecret: decrypt(secretKey, row.sealed) } : null;
}

/**
 * The platforms the owner's accounts can be connected on: those the deployment has an app for,
 * and those it has none for where the owner set its own (in the catalogue's order).
 */
export async function platformsAvailableTo(
  db: Queryable,
  platforms: PlatformSet,
  ownerId: string,
): Promise<Platform[]> {
  if (platforms.ownerAppsOnly.length === 0) return platforms.available;
  const own = await db
    .select({ platform: platformApps.platform })
    .from(platformApps)
    .where(eq(platformApps.ownerId, ownerId));
  const usable = new Set<Platform>([...platforms.available, ...own.map((a) => a.platform)]);
  return PLATFORMS.filter(
    (p) => usable.has(p) && (platforms.available.includes(p) || platforms.ownerAppsOnly.includes(p)),
  );
}
