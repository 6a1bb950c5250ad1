import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../http/errors.ts';
import { decodeCursor, encodeCursor, toPage } from '../../http/pagination.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  IdempotentPostHeaders,
  ListOf,
  ListQuery,
  ProfileHeader,
  Timestamp,
} from '../../http/schemas.ts';
import { EVENT_TYPES } from '../events/service.ts';
import { listDeliveries, renderDelivery, resendDelivery, sendTestEvent } from './deliveries.ts';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  renderEndpoint,
  rotateSecret,
  updateEndpoint,
  type WebhookDeps,
} from './service.ts';

const EventTypes = Type.Array(Type.Union(EVENT_TYPES.map((e) => Type.Literal(e))), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  description: `Event types to receive: ${EVENT_TYPES.join(', ')}.`,
});
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'https on port 443, on a host that resolves only to public addresses.',
});
const ProfileRef = Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()], {
  description: "Profile id or external_id: only that profile's events. Null or absent: every profile's.",
});

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
  created_at: Timestamp,
  updated_at: Timestamp,
};
const Endpoint = Type.Object(endpointFields, { title: 'WebhookEndpoint' });
const EndpointWithSecret = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description:
        'The signing secret (`whsec_...`), the HMAC-SHA256 key of `Service-Signature`. Shown this once only.',
    }),
  },
  { title: 'WebhookEndpointWithSecret' },
);
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

const Delivery = Type.Object(
  {
    id: Type.String({ description: 'The delivery UUID (the `Service-Delivery` header).' }),
    endpoint_id: Type.String(),
    event_id: Type.String({ description: "The event's UUID (the envelope's `id`); a resend keeps it." }),
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** History cursors are (created_at, id) of the last delivery shown. */
function decodeDeliveryCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  const raw = decodeCursor(cursor, 'timestamp|uuid');
  if (raw === undefined) return undefined;
  const [at, id] = raw.split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !UUID.test(id) || Number.isNaN(createdAt.getTime())) {
    throw errors.validation([{ field: 'query.cursor', message: 'is not a cursor this API returned' }]);
  }
  return { createdAt, id };
}

const tags = ['Webhooks'];
const errorsOf = (...extra: number[]) => errorResponses(...AUTHENTICATED_ERRORS, ...extra);

export function webhookRoutes(deps: WebhookDeps): FastifyPluginAsyncTypebox {
  const { db } = deps;
  return async (app) => {
    app.post(
      '/v1/webhooks',
      {
        // Its answer holds the secret, shown once: a replay must not show it again.
        config: { idempotencyKey: false },
        schema: {
          tags,
          summary: 'Create a webhook endpoint',
          description:
            'Answers 201 with the endpoint and its signing secret, shown this once. At most 10 endpoints per owner (422 `webhook_limit_reached`); a URL that is not https on port 443 with a public host is 422 `invalid_webhook_url`. A profile key (or a Service-Profile header) creates endpoints bound to its profile.',
          headers: ProfileHeader,
          body: Type.Object(
            { url: Url, events: EventTypes, profile_id: Type.Optional(ProfileRef) },
            { additionalProperties: false },
          ),
          response: { 201: EndpointWithSecret, ...errorsOf(413, 415, 422) },
        },
      },
      async (request, reply) => {
        const { endpoint, secret } = await createEndpoint(deps, request.scope, {
          url: request.body.url,
          events: request.body.events,
          profileId: request.body.profile_id,
        });
        return reply.code(201).send({ ...renderEndpoint(endpoint), secret });
      },
    );

    app.get(
      '/v1/webhooks',
      {
        schema: {
          tags,
          summary: 'List webhook endpoints',
          description: 'Oldest first. Never includes secrets. A profile key sees the endpoints bound to its profile.',
          headers: ProfileHeader,
          querystring: Type.Object(ListQuery, { additionalProperties: false }),
          response: { 200: ListOf(Endpoint), ...errorsOf() },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listEndpoints(db, request.scope, {
          limit,
          after: decodeCursor(request.query.cursor, 'webhookEndpoint'),
        });
        return toPage(rows, limit, renderEndpoint);
      },
    );

    app.get(
      '/v1/webhooks/:id',
      {
        schema: {
          tags,
          summary: 'Get a webhook endpoint',
          headers: ProfileHeader,
          params: Params,
          response: { 200: Endpoint, ...errorsOf() },
        },
      },
      async (request) => renderEndpoint(await getEndpoint(db, request.scope, request.params.id)),
    );

    app.patch(
      '/v1/webhooks/:id',
      {
        schema: {
          tags,
          summary: 'Update a webhook endpoint',
          description: 'Any of `url`, `events`, `profile_id` (null unbinds), `active`.',
          headers: ProfileHeader,
          params: Params,
          body: Type.Object(
            {
              url: Type.Optional(Url),
              events: Type.Optional(EventTypes),
              profile_id: Type.Optional(ProfileRef),
              active: Type.Optional(Type.Boolean()),
            },
            { additionalProperties: false },
          ),
          response: { 200: Endpoint, ...errorsOf(413, 415, 422) },
        },
      },
      async (request) =>
        renderEndpoint(
          await updateEndpoint(deps, request.scope, request.params.id, {
            ...(request.body.url === undefined ? {} : { url: request.body.url }),
            ...(request.body.events === undefined ? {} : { events: request.body.events }),
            ...(request.body.profile_id === undefined ? {} : { profileId: request.body.profile_id }),
            ...(request.body.active === undefined ? {} : { active: request.body.active }),
          }),
        ),
    );

    app.delete(
      '/v1/webhooks/:id',
      {
        schema: {
          tags,
          summary: 'Delete a webhook endpoint',
          description: 'Answers 204.',
          headers: ProfileHeader,
          params: Params,
          response: { 204: Type.Null({ description: 'Deleted.' }), ...errorsOf() },
        },
      },
      async (request, reply) => {
        await deleteEndpoint(db, request.scope, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/v1/webhooks/:id/deliveries',
      {
        schema: {
          tags,
          summary: "List an endpoint's deliveries",
          description:
            'The last 30 days, newest first, each with its attempts (time, duration, status code or error, up to 20 KB of the answer) and, while pending, when the next attempt is due.',
          headers: ProfileHeader,
          params: Params,
          querystring: Type.Object(ListQuery, { additionalProperties: false }),
          response: { 200: ListOf(Delivery), ...errorsOf() },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listDeliveries(db, request.scope, request.params.id, {
          limit,
          before: decodeDeliveryCursor(request.query.cursor),
        });
        const page = rows.slice(0, limit);
        const last = page.at(-1);
        return {
          data: page.map(renderDelivery),
          next_cursor: rows.length > limit && last ? encodeCursor(`${last.createdAt.toISOString()}|${last.id}`) : null,
        };
      },
    );

    app.post(
      '/v1/webhooks/:id/deliveries/:deliveryId/resend',
      {
        schema: {
          tags,
          summary: 'Resend a delivery',
          description:
            'Sends the same event (same `id`) to this endpoint again, now, as a new delivery; answers 202 with it. 409 `webhook_inactive` while the endpoint is inactive.',
          headers: IdempotentPostHeaders,
          params: Type.Object({ id: Params.properties.id, deliveryId: Type.String({ format: 'uuid' }) }),
          response: { 202: Delivery, ...errorsOf(409) },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(renderDelivery(await resendDelivery(db, request.scope, request.params.id, request.params.deliveryId))),
    );

    app.post(
      '/v1/webhooks/:id/test',
      {
        schema: {
          tags,
          summary: 'Send a test event',
          description:
            'Sends a `webhook.test` event to this endpoint only, at once; answers 202 with the delivery. 409 `webhook_inactive` while the endpoint is inactive.',
          headers: IdempotentPostHeaders,
          params: Params,
          response: { 202: Delivery, ...errorsOf(409) },
        },
      },
      async (request, reply) =>
        reply.code(202).send(renderDelivery(await sendTestEvent(db, request.scope, request.params.id))),
    );

    app.post(
      '/v1/webhooks/:id/rotate-secret',
      {
        config: { idempotencyKey: false },
        schema: {
          tags,
          summary: "Rotate an endpoint's signing secret",
          description:
            'Answers with the endpoint and its new secret, shown this once. For 24 hours each delivery carries two `v1=` signatures, by the new secret and the old one, so receivers can switch without losing events.',
          headers: ProfileHeader,
          params: Params,
          response: { 200: EndpointWithSecret, ...errorsOf() },
        },
      },
      async (request) => {
        const { endpoint, secret } = await rotateSecret(deps, request.scope, request.params.id);
        return { ...renderEndpoint(endpoint), secret };
      },
    );
  };
}
