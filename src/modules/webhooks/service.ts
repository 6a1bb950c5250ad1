import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, gt, inArray, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { DAY_MS } from '../../days.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError, errors } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { newId } from '../../ids.ts';
import { checkOutboundUrl, type UrlPolicy } from '../../outbound/address-policy.ts';
import { encrypt, openSealed } from '../../secrets.ts';
import type { EventType } from '../events/index.ts';
import { findProfile, type ProfileDeletionStep } from '../profiles/index.ts';
import type { WebhookEndpoint } from './json.ts';
import { webhookDeliveries, webhookEndpoints } from './tables.ts';

/** What the webhooks module needs besides the database. */
export interface WebhookDeps {
  db: Db;
  /** SECRET_KEY: signing secrets are stored encrypted under it. */
  secretKey: Buffer;
  urlPolicy: UrlPolicy;
}

export const MAX_ENDPOINTS_PER_OWNER = 10;
/** After a rotation the old secret still signs for this long, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = DAY_MS;

/**
 * `whsec_` and 32 random bytes in standard, padded base64 (44 characters): the one string a
 * receiver verifies both schemes with. Service-Signature is keyed with the whole string;
 * Standard Webhooks libraries decode the base64 after `whsec_` as standard base64: they refuse
 * the URL alphabet's `-` and `_` (and some a missing `=`), which is why the bytes are not
 * written as base64url, as secrets made before were (the service still signs for those,
 * src/webhook-signature.ts).
 */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

async function checkUrl(policy: UrlPolicy, url: string): Promise<string> {
  const check = await checkOutboundUrl(url, policy);
  if (!check.ok) {
    throw new ApiError(422, 'invalid_webhook_url', `The webhook URL is not allowed: ${check.reason}.`, {
      reason: check.reason,
    });
  }
  return check.url.href;
}

/**
 * The profile an endpoint will be bound to. A caller scoped to a profile (a profile key,
 * or the Service-Profile header) can only bind to that profile: its endpoints are its own.
 */
async function bindingFor(db: Db, scope: Scope, ref: string | null | undefined): Promise<string | null> {
  if (scope.profileId !== null) {
    if (ref === undefined) return scope.profileId;
    const named = ref === null ? null : await findProfile(db, scope.ownerId, ref);
    if (named?.id !== scope.profileId) throw errors.profileMismatch();
    return scope.profileId;
  }
  if (ref === undefined || ref === null) return null;
  const profile = await findProfile(db, scope.ownerId, ref);
  if (!profile) throw errors.profileNotFound(ref);
  return profile.id;
}

/** Endpoints the caller may see: the owner's, or, when scoped, those bound to its profile. */
function visible(scope: Scope) {
  return and(
    eq(webhookEndpoints.ownerId, scope.ownerId),
    scope.profileId === null ? undefined : eq(webhookEndpoints.profileId, scope.profileId),
  );
}

function notFound(id: string): ApiError {
  return new ApiError(404, 'webhook_not_found', `No webhook endpoint ${JSON.stringify(id)}.`);
}

export async function createEndpoint(
  deps: WebhookDeps,
  scope: Scope,
  input: { url: string; events: EventType[]; profileId?: string | null | undefined },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = await checkUrl(deps.urlPolicy, input.url);
  const profileId = await bindingFor(deps.db, scope, input.profileId);
  const secret = newSecret();
  const endpoint = await deps.db.transaction(async (tx) => {
    // Serialises creations of one owner, so concurrent requests cannot pass the limit.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhook_endpoints:${scope.ownerId}`}))`);
    const [existing] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.ownerId, scope.ownerId));
    if ((existing?.n ?? 0) >= MAX_ENDPOINTS_PER_OWNER) {
      throw new ApiError(
        422,
        'webhook_limit_reached',
        `An owner can have at most ${MAX_ENDPOINTS_PER_OWNER} webhook endpoints; delete one first.`,
      );
    }
    const at = now();
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId('webhookEndpoint'),
        ownerId: scope.ownerId,
        profileId,
        url,
        events: [...new Set(input.events)],
        secretSealed: encrypt(deps.secretKey, secret),
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  });
  return { endpoint, secret };
}

export async function listEndpoints(
  db: Db,
  scope: Scope,
  page: { limit: number; after?: string | undefined },
): Promise<WebhookEndpoint[]> {
  return await db
    .select()
    .from(webhookEndpoints)
    .where(and(visible(scope), page.after === undefined ? undefined : gt(webhookEndpoints.id, page.after)))
    .orderBy(asc(webhookEndpoints.id))
    .limit(page.limit + 1);
}

export async function getEndpoint(db: Db, scope: Scope, id: string): Promise<WebhookEndpoint> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(visible(scope), eq(webhookEndpoints.id, id)));
  if (!row) throw notFound(id);
  return row;
}

export async function updateEndpoint(
  deps: WebhookDeps,
  scope: Scope,
  id: string,
  patch: { url?: string; events?: EventType[]; profileId?: string | null; active?: boolean },
): Promise<WebhookEndpoint> {
  const current = await getEndpoint(deps.db, scope, id);
  const url = patch.url === undefined ? undefined : await checkUrl(deps.urlPolicy, patch.url);
  const profileId = patch.profileId === undefined ? undefined : await bindingFor(deps.db, scope, patch.profileId);
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      ...(url === undefined ? {} : { url }),
      ...(patch.events === undefined ? {} : { events: [...new Set(patch.events)] }),
      ...(profileId === undefined ? {} : { profileId }),
      // Re-enabling starts the count of failures afresh and forgets why and when it was disabled.
      ...(patch.active === undefined
        ? {}
        : patch.active
          ? { active: true, consecutiveFailures: 0, disabledReason: null, disabledAt: null }
          : { active: false }),
      updatedAt: now(),
    })
    .where(and(visible(scope), eq(webhookEndpoints.id, current.id)))
    .returning();
  if (!row) throw notFound(id);
  return row;
}

export async function deleteEndpoint(db: Db, scope: Scope, id: string): Promise<void> {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(visible(scope), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw notFound(id);
}

/**
 * Gives the endpoint a new secret. The old one keeps signing for 24 hours (each delivery
 * then carries two signatures in each scheme: two `v1=` in Service-Signature, two `v1,` in
 * webhook-signature), so a receiver can switch without losing events.
 */
export async function rotateSecret(
  deps: WebhookDeps,
  scope: Scope,
  id: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = newSecret();
  const at = now();
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      previousSecretSealed: webhookEndpoints.secretSealed,
      previousSecretExpiresAt: new Date(at.getTime() + ROTATION_OVERLAP_MS),
      secretSealed: encrypt(deps.secretKey, secret),
      updatedAt: at,
    })
    .where(and(visible(scope), eq(webhookEndpoints.id, id)))
    .returning();
  if (!row) throw notFound(id);
  return { endpoint: row, secret };
}

/** The secrets that sign a delivery now: the current one, and a rotated-out one still in its overlap. */
export function signingSecrets(
  secretKey: Buffer,
  endpoint: Pick<WebhookEndpoint, 'secretSealed' | 'previousSecretSealed' | 'previousSecretExpiresAt'>,
): string[] {
  const secrets = [openSealed(secretKey, endpoint.secretSealed)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now()) {
    secrets.push(openSealed(secretKey, endpoint.previousSecretSealed));
  }
  return secrets;
}

/**
 * The webhooks module's part in deleting a profile: the endpoints bound to it go at once, in
 * the request's transaction (with their deliveries): nothing of the profile may stay visible.
 */
export const webhooksProfileDeletion: ProfileDeletionStep = {
  module: 'webhooks',
  revokeAccess: async (tx, profile) => {
    await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.ownerId, profile.ownerId), eq(webhookEndpoints.profileId, profile.id)));
  },
  // The deliveries of the profile's events to endpoints not bound to it, found through the
  // owner's endpoints (the history's index), before the events module deletes the events.
  deleteData: async ({ db }, profile) => {
    await db
      .delete(webhookDeliveries)
      .where(
        and(
          inArray(
            webhookDeliveries.endpointId,
            db
              .select({ id: webhookEndpoints.id })
              .from(webhookEndpoints)
              .where(eq(webhookEndpoints.ownerId, profile.ownerId)),
          ),
          eq(webhookDeliveries.eventProfileId, profile.id),
        ),
      );
  },
};
