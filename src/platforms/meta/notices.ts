/**
 * What Meta's notices (Instagram, Threads, Facebook Pages) share: each POST is signed in
 * `X-Hub-Signature-256` with an app secret, reports changes as `entry[]` of `{field, value}`, and
 * says when it was sent. Meta retries a notice for up to 36 hours, so the same comment may arrive
 * more than once: callers dedupe on the comment id.
 */
import { createHmac } from 'node:crypto';
import { invalidRequest } from '../errors.ts';
import { list, num, record, str } from '../http.ts';
import { noticeJson, sameBytes } from '../notice-checks.ts';
import type { CommentNotice, Platform, PlatformNotice } from '../types.ts';
import { graphDate } from './graph-answers.ts';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/**
 * The notice's JSON, once its signature is checked: "The HTTP request will contain an
 * X-Hub-Signature-256 header containing the SHA256 signature of the request payload, using the
 * app secret as the key, and prefixed with sha256=" (Graph API "Getting Started" with webhooks,
 * https://developers.facebook.com/docs/graph-api/webhooks/getting-started#validate-payloads).
 * Which app's secret is not said for Instagram Login and Threads, whose apps have a secret of their
 * own beside the Meta app's: a signature made with any of `secrets` is taken, each compared in
 * constant time. The signature covers the body's bytes as sent, so it is checked before anything
 * parses them.
 */
export function verifiedMetaNotice(platform: Platform, notice: PlatformNotice, secrets: readonly string[]): unknown {
  const match = SIGNATURE.exec((notice.headers['x-hub-signature-256'] ?? '').trim());
  if (match === null) throw invalidRequest(platform, 'the notice has no X-Hub-Signature-256');
  const signature = Buffer.from(match[1] as string, 'hex');
  // Every secret is tried, so the time taken tells nothing of which one matched.
  const matches = secrets.map((secret) =>
    sameBytes(signature, createHmac('sha256', secret).update(notice.body, 'utf8').digest()),
  );
  if (!matches.includes(true)) throw invalidRequest(platform, 'the X-Hub-Signature-256 does not match');
  return noticeJson(platform, notice.body);
}

/** A Unix time in seconds (Meta's `time`, Facebook's `created_time`), or an ISO time. */
export function timeOf(value: unknown): Date | null {
  const seconds = num(value);
  const date = seconds !== null ? new Date(seconds * 1000) : graphDate(value);
  // A time no clock shows (beyond the year 275760) counts as none.
  return date !== null && Number.isFinite(date.getTime()) ? date : null;
}

export interface NoticeChange {
  entry: Record<string, unknown>;
  field: string;
  value: Record<string, unknown>;
}

/**
 * Each `{field, value}` change of each entry, with the entry: the Facebook Login shape nests
 * them in `entry[].changes[]`, Instagram Login's documented examples put `field` and `value`
 * on the entry itself (https://developers.facebook.com/docs/instagram-platform/webhooks/examples).
 */
export function changesOf(body: unknown): NoticeChange[] {
  const found = [];
  for (const rawEntry of list(record(body).entry)) {
    const entry = record(rawEntry);
    const changes = Array.isArray(entry.changes) ? entry.changes : [entry];
    for (const rawChange of changes) {
      const change = record(rawChange);
      const field = str(change.field);
      if (field !== null) found.push({ entry, field, value: record(change.value) });
    }
  }
  return found;
}

/** A comment a change reports, with the account it is for. */
export type NoticedComment = Omit<CommentNotice, 'noticedAt'>;

/**
 * The comments the changes report, as `read` finds them in a change (null: it reports none the
 * service reads), each noticed when its entry says Meta sent it (`time`), else `received`.
 */
export function commentNotices(
  changes: readonly NoticeChange[],
  received: Date,
  read: (change: NoticeChange) => NoticedComment | null,
): CommentNotice[] {
  const notices: CommentNotice[] = [];
  for (const change of changes) {
    const found = read(change);
    if (found !== null) notices.push({ ...found, noticedAt: timeOf(change.entry.time) ?? received });
  }
  return notices;
}
