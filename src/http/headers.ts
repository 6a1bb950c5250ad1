import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors, type ValidationDetail } from './errors.ts';
import { textProblem } from './validation.ts';

/** The request headers the API itself acts on. */
const ACTED_ON = ['authorization', 'service-profile', 'idempotency-key'];

/**
 * An onRequest hook, before authentication: each header the API acts on must come at most
 * once and follow the text rule. Node keeps the first of two `Authorization` headers and
 * joins two `Service-Profile` headers with ", ", so a proxy and the service could each act
 * on a different one; refusing is the only answer both agree on. The text rule is checked
 * here, not only by the route schemas, because authentication looks up `Service-Profile`
 * before any schema runs.
 */
export async function checkActedOnHeaders(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const raw = request.raw.rawHeaders;
  const counts = new Map<string, number>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (ACTED_ON.includes(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  if (counts.size === 0) return;
  const details: ValidationDetail[] = [];
  for (const name of ACTED_ON) {
    const count = counts.get(name) ?? 0;
    if (count > 1) {
      details.push({ field: `header.${name}`, message: `must be sent once, not ${count} times` });
      continue;
    }
    const value = request.headers[name];
    const problem = typeof value === 'string' ? textProblem(value) : undefined;
    if (problem) details.push({ field: `header.${name}`, message: problem });
  }
  if (details.length > 0) throw errors.validation(details);
}
