/** What the sandbox's platform hosts share: error rendering, parameters, Graph-style paging and fields. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badParameter, type Family, graphAnswer, SandboxAnswer, tiktokAnswer } from './answers.ts';
import type { Store } from './platform.ts';
import type { SandboxContainer, SandboxToken } from './schema.ts';
import { findContainer } from './store/containers.ts';
import { issueToken } from './store/grants.ts';
import { insightFigures, LIFETIME_DAY } from './store/insights.ts';
import { getSetting } from './store/settings.ts';

/** Sends SandboxAnswers as they are, and anything else in the family's envelope. */
export function installAnswers(app: FastifyInstance, family: Family): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof SandboxAnswer) {
      return reply.code(error.status).headers(error.headers).send(error.body);
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status < 500) {
      const answer = badParameter(family, (error as Error).message);
      return reply.code(answer.status).send(answer.body);
    }
    request.log.error({ err: error }, 'sandbox error');
    const answer =
      family === 'tiktok'
        ? tiktokAnswer(500, 'internal_error', 'Something went wrong. Please try again later.')
        : graphAnswer(500, 2, 'An unexpected error has occurred. Please retry your request later.', {
            isTransient: true,
          });
    return reply.code(answer.status).send(answer.body);
  });
  app.setNotFoundHandler((request, reply) => {
    const answer =
      family === 'tiktok'
        ? tiktokAnswer(404, 'invalid_params', `Unknown path ${request.url.split('?')[0]}`)
        : graphAnswer(400, 100, `Unknown path components: ${request.url.split('?')[0]}`, { subcode: 2500 });
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

export function requiredParam(request: FastifyRequest, family: Family, name: string): string {
  const value = param(request, name);
  if (value === undefined || value === '') throw badParameter(family, `The parameter ${name} is required`);
  return value;
}

/**
 * The `subscribed_fields` of a `POST /{id}/subscribed_apps` (required, comma separated), each
 * one of `known`; code 100 otherwise, `refusal` saying so in the platform's words.
 */
export function subscribedFields(
  request: FastifyRequest,
  known: readonly string[],
  refusal: (unknown: string | undefined) => string,
): string[] {
  const fields = requiredParam(request, 'graph', 'subscribed_fields')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  const unknown = fields.find((f) => !known.includes(f));
  if (unknown !== undefined || fields.length === 0) throw badParameter('graph', refusal(unknown));
  return fields;
}

/** Graph paths carry a version (`v25.0`); anything else is an unknown path. */
export function checkVersion(request: FastifyRequest): void {
  const version = (request.params as { version?: string }).version ?? '';
  if (!/^v\d+\.\d+$/.test(version)) {
    throw graphAnswer(400, 2500, `Unknown path components: /${version}`);
  }
}

/** `fields=a,b,c{x,y}` as top-level names. */
export function requestedFields(request: FastifyRequest, defaults: string[]): Set<string> {
  const raw = param(request, 'fields');
  if (raw === undefined || raw.trim() === '') return new Set(defaults);
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of raw) {
    if (char === '{') depth += 1;
    if (char === '}') depth -= 1;
    if (char === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else if (depth === 0 && char !== '}') current += char;
  }
  names.push(current);
  return new Set(names.map((n) => n.trim()).filter((n) => n !== ''));
}

/** Only the requested fields (Graph always answers `id`). */
export function pick(values: Record<string, unknown>, fields: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: values.id };
  for (const name of fields) if (name in values && values[name] !== undefined) out[name] = values[name];
  return out;
}

/** A `limit` parameter within 1..max (default `fallback`). */
export function limitParam(request: FastifyRequest, family: Family, fallback: number, max: number): number {
  const raw = param(request, 'limit');
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw badParameter(family, 'limit must be a positive integer');
  return Math.min(n, max);
}

/** A Graph list answer with cursor paging; `next` repeats the request with `after` set. */
export function graphList(
  request: FastifyRequest,
  data: Record<string, unknown>[],
  more: boolean,
  nextCursor: string | null,
): Record<string, unknown> {
  const cursors = {
    before: Buffer.from(String(data[0]?.id ?? '')).toString('base64url'),
    after: nextCursor === null ? '' : Buffer.from(nextCursor).toString('base64url'),
  };
  const paging: Record<string, unknown> = { cursors };
  if (more && nextCursor !== null) {
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    url.searchParams.set('after', cursors.after);
    paging.next = url.toString();
  }
  return { data, paging };
}

/** The `after` cursor of a Graph list request, decoded. */
export function afterCursor(request: FastifyRequest): string | undefined {
  const raw = param(request, 'after');
  if (raw === undefined || raw === '') return undefined;
  return Buffer.from(raw, 'base64url').toString('utf8');
}

/** Unix seconds as a UTC day. */
export function dayOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/**
 * The UTC days in [since, until) given as Unix seconds (at least the first). The caller bounds
 * the range (Instagram's 30 days; Threads' since the insights epoch, up to today).
 */
export function daysBetween(since: number, until: number): string[] {
  const days: string[] = [];
  for (let t = Math.floor(since / 86_400) * 86_400; t < until || days.length === 0; t += 86_400) {
    days.push(dayOf(t));
  }
  return days;
}

/**
 * The `since` and `until` of an insights request, in Unix seconds. Instagram and Threads both
 * say that without them the range is "yesterday through today": from the start of yesterday
 * (a UTC day in the sandbox) until now; with `until` alone, from the start of the day before it.
 */
export function insightsRange(request: FastifyRequest, nowSeconds: number): { since: number; until: number } {
  const until = timeParam(request, 'graph', 'until') ?? nowSeconds;
  const since = timeParam(request, 'graph', 'since') ?? Math.floor(until / 86_400) * 86_400 - 86_400;
  return { since, until };
}

/** A time series' paging: the same request over the range just before (`previous`) and after (`next`). */
export function rangePaging(request: FastifyRequest, since: number, until: number): { previous: string; next: string } {
  const span = until - since;
  const at = (start: number) => {
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    url.searchParams.set('since', String(start));
    url.searchParams.set('until', String(start + span));
    return url.toString();
  };
  return { previous: at(since - span), next: at(until) };
}

/** The `end_time` of a daily value: the end of its day (a UTC day in the sandbox), as a Graph time. */
export function dayEndTime(day: string): string {
  return graphTime(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000));
}

/** Unix seconds (or an ISO date) from a `since` / `until` parameter. */
export function timeParam(request: FastifyRequest, family: Family, name: string): number | undefined {
  const raw = param(request, name);
  if (raw === undefined || raw === '') return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw) / 1000;
  if (!Number.isFinite(n)) throw badParameter(family, `${name} must be a Unix time`);
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

/** The media URLs a publishing container holds: its own, or its carousel items', in order. */
export async function containerMediaUrls(store: Store, container: SandboxContainer): Promise<string[]> {
  const children = container.request.media_type === 'CAROUSEL' ? String(container.request.children ?? '') : '';
  const ids = children.split(',').filter((id) => id !== '');
  const holders = ids.length === 0 ? [container] : await Promise.all(ids.map((id) => findContainer(store, id)));
  return holders
    .map((c) => c?.request.image_url ?? c?.request.video_url)
    .filter((url): url is string => typeof url === 'string');
}

/** Whether a publishing container is still processing (`container_processing_seconds` on the sandbox clock). */
export async function stillProcessing(store: Store, container: SandboxContainer): Promise<boolean> {
  const seconds = await getSetting(store, 'container_processing_seconds');
  return store.now().getTime() - container.createdAt.getTime() < seconds * 1000;
}

/**
 * Publishing a container still processing: Instagram's error-code reference names code
 * 9007, subcode 2207027 ("The media is not ready for publishing, please wait for a
 * moment"); Threads documents none of its own, so it answers the same.
 */
export function notReadyToPublish(): SandboxAnswer {
  return graphAnswer(400, 9007, 'Media ID is not available', { subcode: 2207027 });
}

/** A Graph timestamp: ISO 8601 in UTC without milliseconds, offset written `+0000`. */
export function graphTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, '+0000');
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

/**
 * A Graph post-insights answer: each metric with its lifetime figure; a metric without
 * data is left out, never 0.
 */
export async function lifetimeInsights(
  store: Store,
  accountId: string,
  postId: string,
  metrics: string[],
): Promise<{ data: Record<string, unknown>[] }> {
  const figures = await insightFigures(store, { accountId, postId, metrics, days: [LIFETIME_DAY] });
  const data = [];
  for (const metric of metrics) {
    const value = figures.get(metric)?.get(LIFETIME_DAY) ?? null;
    if (value === null) continue;
    data.push({
      name: metric,
      period: 'lifetime',
      values: [{ value }],
      title: metric,
      description: '',
      id: `${postId}/insights/${metric}/lifetime`,
    });
  }
  return { data };
}

/** Instagram's and Threads' long-lived token answer, for the user of `source` with its scopes. */
export async function longLivedTokenAnswer(store: Store, source: SandboxToken, prefix: string, seconds: number) {
  const token = await issueToken(
    store,
    {
      platform: source.platform,
      accountId: source.accountId,
      kind: 'long',
      clientId: source.clientId,
      scopes: source.scopes,
      prefix,
    },
    seconds * 1000,
  );
  return { access_token: token.token, token_type: 'bearer', expires_in: seconds };
}
