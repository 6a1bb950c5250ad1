/**
 * Rendered answers of GET /v1/accounts/{id}/insights, kept by each API process between
 * changes. Reading a year of every metric and writing it out as JSON costs PostgreSQL more
 * than a millisecond a request (its queries alone fill two cores at about 1,300-1,600 requests/s,
 * bench/README.md), yet the figures change only when a refresh or the history stores some.
 *
 * An answer is kept under everything it is made of: the account, the days, the metrics, the
 * permission the account lacks, when it was last read, and the stamp of its stored figures (the
 * transaction ids of their rows, which any write of them changes). Each request reads the
 * account as the caller sees it with that state, in one small statement, and takes the kept
 * answer only when every part matches, so a kept answer is never one the stored figures no
 * longer give, and the caller's access is checked every time.
 */
import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface RenderedAnswer {
  body: Buffer;
  /** The ETag of `body` (conditional-get.ts's, computed once). */
  etag: string;
}

/** What an answer is made of; two requests with equal parts get the same bytes. */
export interface AnswerParts {
  accountId: string;
  from: number;
  to: number;
  metrics: readonly string[];
  missingPermission: string | null;
  /** refreshed_at as PostgreSQL wrote it (text), or null. */
  syncedAt: string | null;
  /** The stored figures' stamp, or null when none are stored. */
  stamp: string | null;
}

export interface AnswerCache {
  /** False when no answers are kept (a size of 0). */
  readonly keeps: boolean;
  get(parts: AnswerParts): RenderedAnswer | undefined;
  /** The answer rendered as `text`, kept under `parts` (unless larger than the whole cache). */
  keep(parts: AnswerParts, text: string): RenderedAnswer;
}

const keyOf = (p: AnswerParts) =>
  JSON.stringify([p.accountId, p.from, p.to, p.metrics, p.missingPermission, p.syncedAt, p.stamp]);

/** What an entry costs beside its body and key: its objects and the cache's own record of it. */
const ENTRY_OVERHEAD_BYTES = 256;

/** Kept answers are dropped a day after they were made, used or not, so figures a deletion removed do not linger in memory. */
const KEPT_FOR_MS = 24 * 3_600_000;

/** The rendered answer of `text`, its tag computed as conditional-get.ts computes it. */
function rendered(text: string): RenderedAnswer {
  // A buffer of its own: Buffer.from puts small texts in a shared 8 KiB block, which a kept
  // answer would then hold whole.
  const body = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  body.write(text);
  return { body, etag: `"${hash('sha1', body, 'base64url')}"` };
}

/** A cache of at most `megabytes` of answers (the least recently used go first); 0 keeps none. */
export function answerCache(megabytes: number): AnswerCache {
  const cache =
    megabytes > 0
      ? new LRUCache<string, RenderedAnswer>({
          maxSize: megabytes * 1024 * 1024,
          sizeCalculation: (answer, key) => answer.body.length + key.length * 2 + ENTRY_OVERHEAD_BYTES,
          ttl: KEPT_FOR_MS,
          ttlAutopurge: true,
          updateAgeOnGet: false,
        })
      : null;
  return {
    keeps: cache !== null,
    get: (parts) => cache?.get(keyOf(parts)),
    keep: (parts, text) => {
      const answer = rendered(text);
      cache?.set(keyOf(parts), answer);
      return answer;
    },
  };
}
