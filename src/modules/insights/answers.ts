/**
 * Rendered answers of GET /v1/accounts/{id}/insights, kept by each API process until the
 * database says their account changed. Reading a year of every metric and writing it out as
 * JSON costs PostgreSQL more than a millisecond a request (its queries alone fill two cores at
 * about 1,300-1,600 requests/s, bench/README.md), yet the figures change only when a refresh or
 * the history stores some.
 *
 * Triggers notify every change of an account's stored figures or last refresh, and of who sees
 * the account or what it may read (src/db/migrations/0026_insights_changed.sql), whichever code
 * makes it; each process listens (src/http/read-cache.ts) and forgets that account's answers.
 * So a kept answer is given without asking the database, once the caller is seen to be one the
 * account is visible to (its owner, a key of its profile, the profile not being deleted).
 *
 * An answer is kept under the account's *generation*, taken before its figures are read and
 * moved on by every notification of the account: an answer read while a change committed is
 * kept under a generation no later request asks for. While changes are not heard (the listener
 * not connected), nothing is kept or given, as a notification could be missed.
 */
import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ownedBytes } from '../../http/cached-answer.ts';
import { hearingChanges, onRowChanges } from '../../http/read-cache.ts';

export interface RenderedAnswer {
  body: Buffer;
  /** The ETag of `body` (conditional-get.ts's, computed once). */
  etag: string;
}

/** A kept answer, and who may be given it. */
export interface KeptAnswer extends RenderedAnswer {
  ownerId: string;
  profileId: string;
}

/** What a request asks, as far as its answer goes: equal requests of one account get the same bytes. */
export interface AnswerKey {
  accountId: string;
  from: number;
  to: number;
  /** The `metrics` parameter as given (only an answer, never an error, is kept under it). */
  metrics: string | undefined;
}

/** Taken before an answer's figures are read; the answer is kept under it. */
export interface AnswerTicket {
  key: AnswerKey;
  generation: string;
}

/** How the cache hears of changes: src/http/read-cache.ts's listener, or a test's. */
export interface ChangeSource {
  hearing(): boolean;
  /** Calls the handler with each changed account's id, or null: every account. */
  subscribe(handler: (accountId: string | null) => void): void;
}

const listenerChanges: ChangeSource = {
  hearing: hearingChanges,
  subscribe: (handler) => {
    onRowChanges(['switchboard_insights_changed', 'switchboard_account_changed'], handler);
  },
};

export interface AnswerCache {
  /** The answer kept for `key`, while changes are heard. */
  get(key: AnswerKey): KeptAnswer | undefined;
  /** Taken before reading the figures of an answer to keep. */
  ticket(key: AnswerKey): AnswerTicket;
  /** The answer rendered as `text`, kept under `ticket` when changes are heard (and it fits). */
  keep(ticket: AnswerTicket, who: { ownerId: string; profileId: string }, text: string): RenderedAnswer;
}

/** What an entry costs beside its body and key: its objects and the cache's own record of it. */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Kept answers are dropped a minute after they were made, used or not (the read cache's TTL): a
 * listening connection broken silently (a NAT dropping it) then keeps no answer older than that.
 */
const KEPT_FOR_MS = 60_000;

/** Accounts whose changes are remembered at most; past this, a new epoch forgets them all (and every answer). */
const MAX_GENERATIONS = 100_000;

/** The rendered answer of `text`, its tag computed as conditional-get.ts computes it. */
function rendered(text: string): RenderedAnswer {
  const body = ownedBytes(text);
  return { body, etag: `"${hash('sha1', body, 'base64url')}"` };
}

/** A cache of at most `megabytes` of answers (the least recently used go first); 0 keeps none. */
export function answerCache(megabytes: number, changes: ChangeSource = listenerChanges): AnswerCache {
  if (megabytes <= 0) {
    return {
      get: () => undefined,
      ticket: (key) => ({ key, generation: '' }),
      keep: (_ticket, _who, text) => rendered(text),
    };
  }
  const cache = new LRUCache<string, KeptAnswer>({
    maxSize: megabytes * 1024 * 1024,
    sizeCalculation: (answer, key) => answer.body.length + key.length * 2 + ENTRY_OVERHEAD_BYTES,
    ttl: KEPT_FOR_MS,
    ttlAutopurge: true,
    updateAgeOnGet: false,
  });
  // Every account's generation starts at the epoch's; a notification of all accounts starts a new epoch.
  let epoch = 0;
  const generations = new Map<string, number>();
  let moves = 0;
  const newEpoch = () => {
    epoch += 1;
    generations.clear();
    cache.clear();
  };
  changes.subscribe((accountId) => {
    if (accountId === null) {
      newEpoch();
      return;
    }
    if (generations.size >= MAX_GENERATIONS) newEpoch();
    // Any number not taken before: a ticket taken earlier never matches again.
    moves += 1;
    generations.set(accountId, moves);
  });
  const generationOf = (accountId: string) => `${epoch}.${generations.get(accountId) ?? 0}`;
  const keyOf = (key: AnswerKey, generation: string) =>
    JSON.stringify([key.accountId, generation, key.from, key.to, key.metrics ?? null]);
  return {
    get: (key) => (changes.hearing() ? cache.get(keyOf(key, generationOf(key.accountId))) : undefined),
    ticket: (key) => ({ key, generation: changes.hearing() ? generationOf(key.accountId) : '' }),
    keep: (ticket, who, text) => {
      const answer = rendered(text);
      // A change heard since the ticket was taken: what was read may be older than it.
      if (ticket.generation !== '' && changes.hearing() && ticket.generation === generationOf(ticket.key.accountId)) {
        cache.set(keyOf(ticket.key, ticket.generation), { ...answer, ownerId: who.ownerId, profileId: who.profileId });
      }
      return answer;
    },
  };
}
