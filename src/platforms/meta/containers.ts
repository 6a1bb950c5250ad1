/**
 * Meta's publishing containers (Instagram, Threads; Facebook's stand-in for them): the reference
 * the service keeps for a container, and what it takes to find the post a container became after
 * a crash, to read the publishing quota and a new post's permalink.
 */
import { createHash } from 'node:crypto';
import { list, num, record } from '../http.ts';
import { type Platform, PlatformError, type PublishingQuota } from '../types.ts';
import { postSummaryOf } from './graph-answers.ts';

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
  const post = postSummaryOf(raw, textField, timeField);
  if (post === null || post.publishedAt === null) return null;
  return {
    id: post.id,
    text: post.text ?? '',
    publishedAt: Math.floor(post.publishedAt.getTime() / 1000),
    permalink: post.permalink,
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

/**
 * A new post's permalink, read after it was published: best effort (null when the read
 * fails), since the post exists whatever this read answers, and failing the publication
 * would make a retry publish it twice.
 */
export async function permalinkAfterPublish(
  read: () => Promise<Record<string, unknown>>,
  field: string,
): Promise<string | null> {
  try {
    const value = (await read())[field];
    return typeof value === 'string' && value !== '' ? value : null;
  } catch (error) {
    if (error instanceof PlatformError) return null;
    throw error;
  }
}
