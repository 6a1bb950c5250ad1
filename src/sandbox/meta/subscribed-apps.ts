import type { FastifyRequest } from 'fastify';
import { requiredParam } from '../kit.ts';
import { graph } from './errors.ts';

/**
 * The `subscribed_fields` of a `POST /{id}/subscribed_apps` (required, comma separated), each
 * one of `known`; code 100 otherwise, `refusal` saying so in the platform's words.
 */
export function subscribedFields(
  request: FastifyRequest,
  known: readonly string[],
  refusal: (unknown: string | undefined) => string,
): string[] {
  const fields = requiredParam(request, graph, 'subscribed_fields')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  const unknown = fields.find((f) => !known.includes(f));
  if (unknown !== undefined || fields.length === 0) throw graph.badParameter(refusal(unknown));
  return fields;
}
