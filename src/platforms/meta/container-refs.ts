/**
 * The reference the service keeps for a Meta publishing container (Instagram, Threads; Facebook's
 * stand-in for one), and how the post it became is recognised among the account's recent posts.
 */
import { createHash } from 'node:crypto';
import { type Platform, PlatformError } from '../types.ts';
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
export function matchPublished(posts: readonly RecentPost[], ref: ContainerRef): RecentPost | null {
  if (ref.at === null) return null;
  const since = ref.at - CLOCK_SLACK_SECONDS;
  const candidates = posts
    .filter((p) => p.publishedAt >= since && textDigest(p.text) === ref.textDigest)
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
