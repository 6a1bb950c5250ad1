import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { decodeCursor, encodeCursor, toPage } from '../../http/pagination.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  IdempotentPostHeaders,
  ListOf,
  ListQuery,
  ProfileHeader,
} from '../../http/schemas.ts';
import { EVENT_TYPES } from '../events/index.ts';
import { listDeliveries, resendDelivery, sendTestEvent } from './deliveries.ts';
import {
  DeliveryJson as Delivery,
  EndpointJson as Endpoint,
  EndpointWithSecretJson as EndpointWithSecret,
  renderDelivery,
  renderEndpoint,
  renderEndpointWithSecret,
} from './json.ts';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
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

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** History cursors are (created_at, id) of the last delivery shown. */
function decodeDeliveryCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  const raw = decodeCursor(cursor, 'timestamp|uuid');
  if (raw === undefined) return undefined;
  // decodeCursor has checked both parts: a real instant and a uuid.
  const [at = '', id = ''] = raw.split('|');
  return { createdAt: new Date(at), id };
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
        return reply.code(201).send(renderEndpointWithSecret(endpoint, secret));
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
            'Sends the same event (same `id`, so the same `webhook-id` header) to this endpoint again, now, as a new delivery; answers 202 with it. 409 `webhook_inactive` while the endpoint is inactive.',
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
            "Answers with the endpoint and its new secret, shown this once. For 24 hours each delivery is signed by the new secret and the old one (two `v1=` in `Service-Signature`, two `v1,` entries in `webhook-signature`, the new secret's first), so receivers can switch without losing events.",
          headers: ProfileHeader,
          params: Params,
          response: { 200: EndpointWithSecret, ...errorsOf() },
        },
      },
      async (request) => {
        const { endpoint, secret } = await rotateSecret(deps, request.scope, request.params.id);
        return renderEndpointWithSecret(endpoint, secret);
      },
    );
  };
}
