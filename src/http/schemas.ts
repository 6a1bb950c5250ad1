import type { FastifyRequest, FastifySchema } from 'fastify';
import { type TSchema, Type } from 'typebox';

/** Shared pieces of route schemas, so every endpoint validates and documents alike. */

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable machine-readable code, e.g. `profile_not_found`.' }),
      message: Type.String({ description: 'What went wrong, for a human.' }),
      request_id: Type.String({
        description: 'Also in the `Request-Id` response header; quote it in support requests.',
      }),
      details: Type.Optional(Type.Unknown({ description: 'For `validation_failed`: a list of `{field, message}`.' })),
    }),
  },
  { $id: 'Error', title: 'Error' },
);

/** The error responses a route can give, by status, all in the one error shape. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}

/** Statuses every authenticated route can answer besides its own. */
export const AUTHENTICATED_ERRORS = [400, 401, 403, 404, 429, 500] as const;

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC.' });

/** A timestamp field with a description of its own (ending "ISO 8601, UTC."). */
export const At = (description: string) =>
  Type.String({ format: 'date-time', description: `${description} ISO 8601, UTC.` });

/** `schema` or null, described once for both. */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** An e-mail address, checked only for its shape: something@somewhere, no spaces. */
export const EmailText = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' });

/**
 * The text rule (docs/api-conventions.md, "Text"). Every string anywhere in a request is
 * refused with NUL or an unpaired surrogate (the validator checks that, http/validation.ts).
 * Single-line text, such as names, also refuses the C0 controls, DEL and the C1 controls
 * (U+0080 to U+009F, e.g. U+0085 NEXT LINE, which some software shows as a line break);
 * multi-line text allows tab, line feed and carriage return of those.
 */
const SINGLE_LINE = '[^\\x00-\\x1f\\x7f-\\x9f]';
const MULTI_LINE = '[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]';

/** A person-written name: single-line text with at least one visible character. */
export function NameText(maxLength: number, description: string) {
  return Type.String({
    minLength: 1,
    maxLength,
    pattern: `^${SINGLE_LINE}*[^\\s\\x00-\\x1f\\x7f-\\x9f]${SINGLE_LINE}*$`,
    description,
  });
}

const MULTI_LINE_TEXT = new RegExp(`^${MULTI_LINE}*$`);

/** The rule of MultiLineText, for text that does not come through a schema (a hosted page's form). */
export function isMultiLineText(value: string): boolean {
  return MULTI_LINE_TEXT.test(value);
}

/** Person-written text that may span lines (tab, LF and CR allowed; no other controls). */
export function MultiLineText(options: { title?: string; minLength?: number; maxLength: number; description: string }) {
  return Type.String({ ...options, pattern: `^${MULTI_LINE}*$` });
}

export const ListQuery = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Items per page, 1 to 100.' }),
  ),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'The `next_cursor` of the previous page.' }),
  ),
};

/** A list's `from` and `to` query parameters: a time range on `field`, both ends included. */
export function TimeRangeQuery(field: string) {
  return {
    from: Type.Optional(Type.String({ format: 'date-time', description: `${field} at or after.` })),
    to: Type.Optional(Type.String({ format: 'date-time', description: `${field} at or before.` })),
  };
}

/** The Date of a `TimeRangeQuery` bound, when given. */
export function timeBound(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : new Date(value);
}

export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next page; null on the last page.',
    }),
  });
}

export const ProfileHeader = Type.Object({
  'service-profile': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Owner keys only: a profile id or `external_id` that scopes the request to that profile.',
    }),
  ),
});

const IdempotencyKeyHeader = Type.Optional(
  Type.String({
    description:
      'Up to 255 printable ASCII characters, unique per request. A retry with the same key and request gets the first answer again (kept 24 hours) instead of doing the work twice.',
  }),
);

/** Headers of a POST that takes an Idempotency-Key (checked by http/idempotency.ts). */
export const IdempotentPostHeaders = Type.Object({
  ...ProfileHeader.properties,
  'idempotency-key': IdempotencyKeyHeader,
});

/** The query schema of routes that take no query parameters. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

/**
 * What every /v1 route's schema gets where it says nothing (an onRoute hook): no query
 * parameters, so an unknown one is an error as in bodies; each `:name` of its path as a
 * string of 1 to 255 characters, so the shared text rule (no NUL, no unpaired surrogate) covers
 * a path parameter a route forgot to describe; and on every POST that takes an Idempotency-Key
 * (all but those whose config says `idempotencyKey: false`), the header, so the OpenAPI
 * document, and the typed client and MCP tools made from it, offer the key wherever it works.
 */
export function applySchemaDefaults(route: {
  url: string;
  method: string | string[];
  config?: { idempotencyKey?: false };
  schema?: FastifySchema;
}): void {
  if (!route.schema) return;
  route.schema.querystring ??= NoQuery;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (methods.includes('POST') && route.config?.idempotencyKey !== false) {
    const headers = route.schema.headers as { properties?: Record<string, TSchema> } | undefined;
    if (!headers?.properties?.['idempotency-key']) {
      route.schema.headers = Type.Object({ ...headers?.properties, 'idempotency-key': IdempotencyKeyHeader });
    }
  }
  if (route.schema.params === undefined) {
    const names = [...route.url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
    route.schema.params = Type.Object(
      Object.fromEntries(names.map((name) => [name, Type.String({ minLength: 1, maxLength: 255 })])),
    );
  }
}

/** A preValidation hook for a body whose fields are all optional: no body at all is as good as `{}`. */
export async function absentBodyAsEmpty(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

/** The body of a sync endpoint: the accounts to read now, all of them (that apply) when none are named. */
export const SyncBody = Type.Optional(
  Type.Object(
    {
      account_ids: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100, uniqueItems: true }),
      ),
    },
    { additionalProperties: false },
  ),
);

/** A sync endpoint's 202 answer: the accounts whose reading was queued. */
export function SyncAnswer(description: string) {
  return Type.Object({ account_ids: Type.Array(Type.String(), { description }) }, { additionalProperties: false });
}
