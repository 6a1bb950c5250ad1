import type { paths } from './openapi-types.ts';

/** The paths that have a POST. */
type PostPath = { [P in keyof paths]: paths[P] extends { post: unknown } ? P : never }[keyof paths];

/** Whether the POST of `P` declares the `Idempotency-Key` header in the OpenAPI document. */
type TakesIdempotencyKey<P extends PostPath> = paths[P]['post'] extends { parameters: { header?: infer H } }
  ? [NonNullable<H>] extends [never]
    ? false
    : 'idempotency-key' extends keyof NonNullable<H>
      ? true
      : false
  : false;

/**
 * Which POSTs the client gives an Idempotency-Key of its own: those whose operation declares the
 * header. The others must not get one: a POST whose answer holds a secret shown once (a new API
 * key, a webhook secret, a connect or approval link's token) refuses any key with `400
 * idempotency_key_not_supported`, as does signing in (`/v1/session`). The type makes tsc check every entry against the generated types: a POST
 * added to the API fails to compile here until it is listed, with the value the document implies.
 */
const TAKES_IDEMPOTENCY_KEY: { readonly [P in PostPath]: TakesIdempotencyKey<P> } = {
  '/v1/session': false,
  '/v1/profiles': true,
  '/v1/profiles/{id}/api-keys': false,
  '/v1/accounts/{id}/move': true,
  '/v1/accounts/{id}/reconnect-links': false,
  '/v1/connect/redirect-origins': true,
  '/v1/profiles/{id}/connect-links': false,
  '/v1/profiles/{id}/report-links': false,
  '/v1/profiles/{id}/report-sends': true,
  '/v1/posts': true,
  '/v1/posts/{id}/approval': true,
  '/v1/posts/{id}/approval-links': false,
  '/v1/posts/{id}/retry': true,
  '/v1/comments/sync': true,
  '/v1/comments/{id}/reply': true,
  '/v1/comments/{id}/hide': true,
  '/v1/insights/sync': true,
  '/v1/media': true,
  '/v1/members': true,
  '/v1/members/{id}/invitation': true,
  '/v1/webhooks': false,
  '/v1/webhooks/{id}/deliveries/{deliveryId}/resend': true,
  '/v1/webhooks/{id}/test': true,
  '/v1/webhooks/{id}/rotate-secret': false,
};

/** True when a POST to `schemaPath` (the path as the document writes it, `{id}` and all) takes a key. */
export function takesIdempotencyKey(schemaPath: string): boolean {
  return Object.hasOwn(TAKES_IDEMPOTENCY_KEY, schemaPath) && TAKES_IDEMPOTENCY_KEY[schemaPath as PostPath];
}
