/** What every imitated host shares: its error answers, and how a request's parameters are read. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ErrorDialect, type ParameterRefusal, SandboxAnswer } from './answers.ts';

/** Sends SandboxAnswers as they are, and anything else in the platform's words. */
export function installAnswers(app: FastifyInstance, errors: ErrorDialect): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof SandboxAnswer) {
      return reply.code(error.status).headers(error.headers).send(error.body);
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status < 500) {
      const answer = errors.badParameter((error as Error).message);
      return reply.code(answer.status).send(answer.body);
    }
    request.log.error({ err: error }, 'sandbox error');
    // The sandbox's own failure reads as the platform's passing one.
    const answer = errors.preset('transient');
    return reply.code(answer.status).send(answer.body);
  });
  app.setNotFoundHandler((request, reply) => {
    const answer = errors.unknownPath(request.url.split('?')[0] ?? '');
    return reply.code(answer.status).send(answer.body);
  });
}

/** A string parameter from the query or the form body. */
export function param(request: FastifyRequest, name: string): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | undefined;
  for (const value of [query?.[name], body && typeof body === 'object' ? body[name] : undefined]) {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  }
  return undefined;
}

export function requiredParam(request: FastifyRequest, refusal: ParameterRefusal, name: string): string {
  const value = param(request, name);
  if (value === undefined || value === '') throw refusal.badParameter(`The parameter ${name} is required`);
  return value;
}

/** A `limit` parameter within 1..max (default `fallback`). */
export function limitParam(request: FastifyRequest, refusal: ParameterRefusal, fallback: number, max: number): number {
  const raw = param(request, 'limit');
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw refusal.badParameter('limit must be a positive integer');
  return Math.min(n, max);
}

/** Unix seconds (or an ISO date) from a `since` / `until` parameter. */
export function timeParam(request: FastifyRequest, refusal: ParameterRefusal, name: string): number | undefined {
  const raw = param(request, name);
  if (raw === undefined || raw === '') return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw) / 1000;
  if (!Number.isFinite(n)) throw refusal.badParameter(`${name} must be a Unix time`);
  return Math.floor(n);
}

/**
 * A JSON number literal of exactly these digits, for ids a platform sends as numbers
 * (Instagram's `user_id`, TikTok's int64 post ids): beyond 2^53 no JS number holds them.
 * Node 24 has JSON.rawJSON; TypeScript's lib does not declare it yet.
 */
export function jsonInteger(digits: string): object {
  if (!/^-?\d+$/.test(digits)) throw new Error(`not an integer: ${digits}`);
  return (JSON as JSON & { rawJSON(text: string): object }).rawJSON(digits);
}

/** An absolute http(s) URL, as media URLs must be. */
export function isHttpUrl(value: string | undefined): value is string {
  if (value === undefined) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** A required `true` or `false` parameter (hiding a comment). */
export function booleanParam(request: FastifyRequest, refusal: ParameterRefusal, name: string): boolean {
  const value = param(request, name);
  if (value !== 'true' && value !== 'false') throw refusal.badParameter(`${name} must be true or false`);
  return value === 'true';
}

/** The form (or JSON object) of a request's body, or nothing when it has none. */
export function formOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
