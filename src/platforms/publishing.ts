/**
 * What the adapters share for publishing: problems found before any call, and the
 * container references that let an adapter find the post a container became after a crash.
 */
import { createHash } from 'node:crypto';
import type { Static, TObject } from 'typebox';
import { list, num, record, str } from './http.ts';
import {
  type Platform,
  PlatformError,
  type PostOptions,
  type PublishDraft,
  type PublishingQuota,
  type PublishProblem,
  type PublishRequest,
} from './types.ts';

export function problem(field: string, message: string): PublishProblem {
  return { field, message };
}

/** The draft a request stands for, to check it again before calling. */
export function draftOf(request: PublishRequest): PublishDraft {
  return {
    ...(request.text !== undefined ? { text: request.text } : {}),
    media: request.media.map((m) => ({ type: m.type, durationSeconds: m.durationSeconds ?? null })),
    ...(request.options !== undefined ? { options: request.options } : {}),
  };
}

/**
 * A post's options as the platform's schema names them. Each value is still data: the API
 * checked them against the schema before storing the post, and checkPublish checks each again
 * (a value of the wrong kind is a problem it reports, never a crash).
 */
export function optionsOf<T extends TObject>(_schema: T, options: PostOptions | undefined): Partial<Static<T>> {
  return (options ?? {}) as Partial<Static<T>>;
}

/** Refuses, before any call (or any further call), a request that breaks the platform's rules, naming each problem. */
export function refuseProblems(platform: Platform, problems: PublishProblem[]): void {
  if (problems.length === 0) return;
  const message = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  throw new PlatformError('invalid_request', `${platform}: ${message}`, {
    platform,
    platformMessage: message,
    problems,
  });
}

/** An absolute http(s) URL. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** A video's duration outside [min, max] seconds, when it is known. */
export function durationProblem(
  media: PublishDraft['media'],
  range: { min: number; max: number },
  what: string,
): PublishProblem | null {
  const outside = media.find(
    (m) =>
      m.type === 'video' &&
      typeof m.durationSeconds === 'number' &&
      (m.durationSeconds < range.min || m.durationSeconds > range.max),
  );
  return outside === undefined
    ? null
    : problem(
        'media_ids',
        `${what} lasts ${range.min} to ${range.max} seconds (this video: ${outside.durationSeconds} s)`,
      );
}

/** Whether `value`, when given, is a boolean (options arrive from JSON). */
export function booleanProblem(value: unknown, field: string): PublishProblem | null {
  return value === undefined || typeof value === 'boolean' ? null : problem(field, 'must be true or false');
}

/**
 * A container id with what finding its post later needs: the platform's container id, the
 * kind of post, when it was made and a digest of its text. Meta's containers do not name
 * the post they became, so after a crash between publishing and our commit the adapter
 * looks for a post of that kind, with that text, published since then. Ids are digits or
 * URL-safe characters, so the dots separate unambiguously; a plain platform id (made
 * before references existed) parses with no fingerprint.
 */
export interface ContainerRef {
  id: string;
  kind: string | null;
  /** Unix seconds the container was made, by the service's clock. */
  at: number | null;
  textDigest: string | null;
}

const SAFE_ID = /^[0-9A-Za-z_-]{1,128}$/;

export function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 16);
}

export function containerRef(id: string, kind: string, at: Date, text: string): string {
  return `${id}.${kind}.${Math.floor(at.getTime() / 1000)}.${textDigest(text)}`;
}

/** The parts of a container reference, or null when it is not one (nor a plain safe id). */
export function parseContainerRef(value: string): ContainerRef | null {
  const parts = value.split('.');
  const [id, kind, at, digest] = parts;
  if (id === undefined || !SAFE_ID.test(id)) return null;
  if (parts.length === 1) return { id, kind: null, at: null, textDigest: null };
  if (parts.length !== 4 || !/^[a-z]{1,10}$/.test(kind ?? '') || !/^\d{1,12}$/.test(at ?? '')) return null;
  if (!/^[A-Za-z0-9_-]{16}$/.test(digest ?? '')) return null;
  return { id, kind: kind as string, at: Number(at), textDigest: digest as string };
}

/** How far the platform's clock may run behind ours when matching a post's time to its container's. */
const CLOCK_SLACK_SECONDS = 600;

export interface RecentPost {
  id: string;
  text: string;
  /** Unix seconds. */
  publishedAt: number;
  permalink: string | null;
}

/**
 * The earliest of `posts` with the container's text, published since the container was
 * made: the post it became. Two posts with the same text published by the account since
 * then cannot be told apart; the earliest is taken.
 */
export function matchPublished(posts: readonly RecentPost[], ref: ContainerRef, matchText = true): RecentPost | null {
  if (ref.at === null) return null;
  const since = ref.at - CLOCK_SLACK_SECONDS;
  const candidates = posts
    .filter((p) => p.publishedAt >= since && (!matchText || textDigest(p.text) === ref.textDigest))
    .sort((a, b) => a.publishedAt - b.publishedAt);
  return candidates[0] ?? null;
}

/** The container reference, or an invalid_request for an id this adapter did not make. */
export function requireContainerRef(platform: Platform, value: string): ContainerRef {
  const ref = parseContainerRef(value);
  if (ref === null)
    throw new PlatformError('invalid_request', `${platform}: not a container id: ${value.slice(0, 60)}`, { platform });
  return ref;
}

/** A post of a Graph list (`id`, its text under `textField`, a Graph timestamp), or null when unreadable. */
export function recentPostOf(raw: unknown, textField: string, timeField = 'timestamp'): RecentPost | null {
  const item = record(raw);
  const id = str(item.id);
  // Graph writes offsets as +0000, which Date.parse does not take everywhere.
  const time = Date.parse((str(item[timeField]) ?? '').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (id === null || Number.isNaN(time)) return null;
  return {
    id,
    text: str(item[textField]) ?? '',
    publishedAt: Math.floor(time / 1000),
    permalink: str(item.permalink) ?? str(item.permalink_url),
  };
}

/**
 * A `{"data":[{<usage>, <config>:{quota_total, quota_duration}}]}` answer (Instagram's
 * content_publishing_limit, Threads' threads_publishing_limit) as a quota.
 */
export function quotaOf(
  platform: Platform,
  body: Record<string, unknown>,
  usageField: string,
  configField: string,
): PublishingQuota {
  const entry = record(list(body.data)[0]);
  const config = record(entry[configField]);
  const used = num(entry[usageField]);
  const limit = num(config.quota_total);
  const windowSeconds = num(config.quota_duration);
  if (used === null || limit === null || windowSeconds === null) {
    throw new PlatformError('transient', `${platform} answered its publishing limit without usage and config`, {
      platform,
    });
  }
  return { used, limit, windowSeconds };
}
