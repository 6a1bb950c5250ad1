import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { byteaColumn, createdAt, timestampColumn, updatedAt } from '../../db/columns.ts';
import type { Platform } from '../../platforms/index.ts';
import { optionalAccountIdColumn } from '../accounts/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { profileIdColumn } from '../profiles/columns.ts';

/** Origins an owner's connect links may send clients back to. */
export const connectRedirectOrigins = pgTable(
  'connect_redirect_origins',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    /** Normalised as the URL standard's origin: `https://app.example.com`, `http://localhost:3000`. */
    origin: text('origin').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('connect_redirect_origins_owner_origin_key').on(t.ownerId, t.origin)],
);

/** How an owner's connect page looks; a missing row means the defaults. */
export const connectSettings = pgTable('connect_settings', {
  ownerId: ownerIdColumn().primaryKey(),
  /** Null: the owner's name. */
  brandName: text('brand_name'),
  /** The owner's logo as a PNG of at most 512 by 512 (logo.ts), with its size; null: none. */
  logoPng: byteaColumn('logo_png'),
  logoWidth: integer('logo_width'),
  logoHeight: integer('logo_height'),
  logoUpdatedAt: timestampColumn('logo_updated_at'),
  updatedAt: updatedAt(),
});

/**
 * A single-use link to the hosted connect page. Only the token's hash is stored. A reconnect
 * link names the one account it reconnects (`accountId`); a connect link names none.
 */
export const connectLinks = pgTable(
  'connect_links',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: profileIdColumn(),
    /** SHA-256 of the token in the link's URL, hex. */
    tokenHash: text('token_hash').notNull().unique(),
    redirectUrl: text('redirect_url').notNull(),
    /** The owner's `state`, returned unchanged; null when none was given. */
    state: text('state'),
    /** The platforms the page offers; null: every available one. A reconnect link's: its account's. */
    platforms: text('platforms').array(),
    /** A reconnect link: the account it reconnects, which only a login of that platform account may. */
    accountId: optionalAccountIdColumn(),
    createdAt: createdAt(),
    expiresAt: timestampColumn('expires_at').notNull(),
    /** Set by the one completion that succeeded. */
    usedAt: timestampColumn('used_at'),
    accountIds: text('account_ids').array(),
  },
  (t) => [
    index('connect_links_expiry_idx').on(t.expiresAt),
    // Deleting an account deletes its reconnect links: found without reading every link.
    index('connect_links_account_idx').on(t.accountId).where(sql`${t.accountId} is not null`),
  ],
);

/**
 * One trip of a client from the connect page to a platform and back. The OAuth `state`
 * sent to the platform is a random value whose hash is stored here; the browser that
 * started the trip holds it in a cookie, so a callback from another browser is refused.
 */
export const connectAttempts = pgTable(
  'connect_attempts',
  {
    id: text('id').primaryKey(),
    linkId: text('link_id')
      .notNull()
      .references(() => connectLinks.id, { onDelete: 'cascade' }),
    platform: text('platform').$type<Platform>().notNull(),
    /** SHA-256 of the OAuth state, hex. */
    stateHash: text('state_hash').notNull().unique(),
    /**
     * For a login that grants pages: the pages (with their tokens) and the granted scopes,
     * as JSON encrypted under SECRET_KEY, kept while the client chooses.
     */
    grantSealed: text('grant_sealed'),
    /**
     * The client id of the owner's own app the trip signed in with (platform-apps); null: the
     * deployment's. A code is exchanged only by the app it was issued to.
     */
    appClientId: text('app_client_id'),
    createdAt: createdAt(),
  },
  (t) => [index('connect_attempts_link_idx').on(t.linkId)],
);
