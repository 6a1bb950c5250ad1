import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors, type ValidationDetail } from './errors.ts';
import { textProblem } from './validation.ts';

/** The request headers the API itself acts on. */
const ACTED_ON = ['authorization', 'service-profile', 'idempotency-key'];

/**
 * An onRequest hook, before authentication: each header the API acts on must follow the
 * text rule. Checked here, not only by the route schemas, because authentication looks
 * up `Service-Profile` before any schema runs.
 */
export async function checkActedOnHeaders(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const details: ValidationDetail[] = [];
  for (const name of ACTED_ON) {
    const value = request.headers[name];
    const problem = typeof value === 'string' ? textProblem(value) : undefined;
    if (problem) details.push({ field: `header.${name}`, message: problem });
  }
  if (details.length > 0) throw errors.validation(details);
}
