/** How the API shows redirect origins, connect settings and new links (connect and reconnect): the schemas and the one function that renders each. */
import { type Static, Type } from 'typebox';
import { Timestamp } from '../../http/schemas.ts';
import type { connectLinks, connectRedirectOrigins } from './tables.ts';

export type ConnectLink = typeof connectLinks.$inferSelect;
export type RedirectOrigin = typeof connectRedirectOrigins.$inferSelect;

export interface ConnectSettings {
  /** As set; null: the page shows the owner's name. */
  brandName: string | null;
  /** The logo's size as stored (a PNG), and when it was set; null: no logo. */
  logo: { width: number; height: number; updatedAt: Date } | null;
  updatedAt: Date | null;
}

export const RedirectOriginJson = Type.Object(
  {
    id: Type.String({ description: 'Redirect origin id, `ro_...`.' }),
    origin: Type.String({ description: 'Normalised: lower-case scheme and host, the port only when not the default.' }),
    created_at: Timestamp,
  },
  { $id: 'RedirectOrigin', title: 'RedirectOrigin' },
);

export const ConnectSettingsJson = Type.Object(
  {
    brand_name: Type.Union([Type.String(), Type.Null()], {
      description: 'Shown on the connect page as "Connect your account to ..."; null: the owner\'s name is shown.',
    }),
    logo: Type.Union(
      [
        Type.Object(
          {
            width: Type.Integer({ description: 'In pixels, at most 512.' }),
            height: Type.Integer({ description: 'In pixels, at most 512.' }),
            updated_at: Timestamp,
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description:
          'The logo on client reports (PUT /v1/connect/settings/logo; its PNG: GET /v1/connect/settings/logo); null: none.',
      },
    ),
    updated_at: Type.Union([Timestamp, Type.Null()], { description: 'Null until the settings are first changed.' }),
  },
  { $id: 'ConnectSettings', title: 'ConnectSettings' },
);

export const ConnectLinkJson = Type.Object(
  {
    url: Type.String({ description: 'The single-use link to the hosted connect page; give it to the client.' }),
    profile_id: Type.String({ description: 'The profile the accounts will join (its id, never the external_id).' }),
    expires_at: Type.String({ format: 'date-time', description: '30 minutes after creation.' }),
  },
  { $id: 'ConnectLink', title: 'ConnectLink' },
);

export const ReconnectLinkJson = Type.Object(
  {
    url: Type.String({
      description:
        'The single-use link to the hosted reconnect page; give it to the person who can sign in as the account.',
    }),
    account_id: Type.String({ description: 'The account the link reconnects (`acc_...`), and no other.' }),
    profile_id: Type.String({ description: "The account's profile (its id), where it stays." }),
    expires_at: Type.String({ format: 'date-time', description: '30 minutes after creation.' }),
  },
  { $id: 'ReconnectLink', title: 'ReconnectLink' },
);

export function renderOrigin(o: RedirectOrigin): Static<typeof RedirectOriginJson> {
  return { id: o.id, origin: o.origin, created_at: o.createdAt.toISOString() };
}

export function renderSettings(s: ConnectSettings): Static<typeof ConnectSettingsJson> {
  return {
    brand_name: s.brandName,
    logo:
      s.logo === null
        ? null
        : { width: s.logo.width, height: s.logo.height, updated_at: s.logo.updatedAt.toISOString() },
    updated_at: s.updatedAt?.toISOString() ?? null,
  };
}

/** A new link: its URL holds the token, which the service keeps only hashed. */
export function renderLink(link: ConnectLink, url: string): Static<typeof ConnectLinkJson> {
  return { url, profile_id: link.profileId, expires_at: link.expiresAt.toISOString() };
}

/** A new reconnect link: the account it reconnects, and its URL, which holds the token. */
export function renderReconnectLink(
  link: ConnectLink & { accountId: string },
  url: string,
): Static<typeof ReconnectLinkJson> {
  return { url, account_id: link.accountId, profile_id: link.profileId, expires_at: link.expiresAt.toISOString() };
}
