/** How the API shows webhook endpoints and deliveries: the schemas and the one function that renders each. */
import { type Static, Type } from 'typebox';
import { Timestamp } from '../../http/schemas.ts';
import type { EventType } from '../events/index.ts';
import type { webhookDeliveries, webhookEndpoints } from './tables.ts';

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type Delivery = typeof webhookDeliveries.$inferSelect;
/** A delivery as listed: with its event's type, and all its attempts (its row holds the first only). */
export type DeliveryWithAttempts = Delivery & { eventType: EventType };

const endpointFields = {
  id: Type.String({ description: 'Endpoint id, `we_...`.' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  profile_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The profile id (never the external_id), or null.',
  }),
  active: Type.Boolean(),
  consecutive_failures: Type.Integer({ description: 'Failed attempts in a row; at 50 the endpoint becomes inactive.' }),
  disabled_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the service made the endpoint inactive, if it did.',
  }),
  disabled_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When the service made the endpoint inactive, if it did; null again once re-enabled.',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
};
export const EndpointJson = Type.Object(endpointFields, { title: 'WebhookEndpoint' });
export const EndpointWithSecretJson = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description:
        'The signing secret: `whsec_` and the standard, padded base64 of 32 random bytes. Shown this once only. It verifies both signature headers of each delivery: `Service-Signature` (HMAC-SHA256 keyed with this whole string) and the Standard Webhooks `webhook-signature` (keyed with the bytes the base64 after `whsec_` encodes; any Standard Webhooks library takes the secret as it is).',
    }),
  },
  { title: 'WebhookEndpointWithSecret' },
);

export const DeliveryJson = Type.Object(
  {
    id: Type.String({ description: 'The delivery UUID (the `Service-Delivery` header).' }),
    endpoint_id: Type.String(),
    event_id: Type.String({
      description: "The event's UUID (the envelope's `id` and the `webhook-id` header); a resend keeps it.",
    }),
    event_type: Type.String(),
    status: Type.Union(
      [Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('cancelled')],
      {
        description:
          'pending: an attempt is due at next_attempt_at; failed: 8 attempts failed; cancelled: the endpoint became inactive.',
      },
    ),
    attempt_count: Type.Integer(),
    next_attempt_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    attempts: Type.Array(
      Type.Object({
        attempted_at: Timestamp,
        duration_ms: Type.Integer(),
        status_code: Type.Union([Type.Integer(), Type.Null()]),
        error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed, when it did.' }),
        response_body: Type.Union([Type.String(), Type.Null()], { description: 'At most 20 KB of the answer.' }),
        succeeded: Type.Boolean(),
      }),
    ),
  },
  { title: 'WebhookDelivery' },
);

export function renderEndpoint(e: WebhookEndpoint): Static<typeof EndpointJson> {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    profile_id: e.profileId,
    active: e.active,
    consecutive_failures: e.consecutiveFailures,
    disabled_reason: e.disabledReason,
    disabled_at: e.disabledAt?.toISOString() ?? null,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

/** A new endpoint, or one whose secret was rotated: with the secret, shown this once. */
export function renderEndpointWithSecret(e: WebhookEndpoint, secret: string): Static<typeof EndpointWithSecretJson> {
  return { ...renderEndpoint(e), secret };
}

export function renderDelivery(d: DeliveryWithAttempts): Static<typeof DeliveryJson> {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    // Written only with these values (deliveries.ts, attempts.ts).
    status: d.status as Static<typeof DeliveryJson>['status'],
    attempt_count: d.attemptCount,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
    attempts: d.attempts.map((a) => ({
      attempted_at: a.attempted_at,
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
      response_body: a.response_body,
      succeeded: a.succeeded,
    })),
  };
}
