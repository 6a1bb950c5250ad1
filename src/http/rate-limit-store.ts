import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { getTableName, sql } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
import { GroupCommit } from '../db/group-commit.ts';
import { rateLimitWindows } from './tables.ts';

/**
 * The rate limit's counts in PostgreSQL (`@fastify/rate-limit`'s store interface), so every API
 * process on the database counts against the same window of a key or address: N processes behind
 * a load balancer allow RATE_LIMIT_PER_MINUTE a minute in all, not N times it.
 *
 * The requests counted in the same turn of the event loop go to the database in one statement
 * (group commit). Once a key has reached its limit, this process answers it without asking
 * the database until its window ends, so a flood costs the database nothing; another process learns
 * of the limit at its first request of that key.
 */

interface Hit {
  key: string;
  windowMs: number;
}

interface Count {
  current: number;
  ttl: number;
}

/** Limited keys this process remembers at most; past this, ended ones are forgotten, then the oldest. */
const MAX_REMEMBERED = 10_000;

export function postgresRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  /** Keys over their limit, and when (Date.now()) their window ends. */
  const limited = new Map<string, number>();
  const remember = (key: string, until: number) => {
    limited.delete(key);
    limited.set(key, until);
    if (limited.size <= MAX_REMEMBERED) return;
    const at = Date.now();
    for (const [k, end] of limited) if (end <= at) limited.delete(k);
    for (const k of limited.keys()) {
      if (limited.size <= MAX_REMEMBERED) break;
      limited.delete(k);
    }
  };
  const counter = new GroupCommit<Hit, Count>((hits) => countHits(db, hits));

  class PostgresStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number, max: number): void {
      const until = limited.get(key);
      const at = Date.now();
      if (until !== undefined && until > at) {
        callback(null, { current: max + 1, ttl: until - at });
        return;
      }
      if (until !== undefined) limited.delete(key);
      counter.submit({ key, windowMs: timeWindow }).then(
        (count) => {
          // At the limit, the next request is over it wherever it goes: none need ask again.
          if (count.current >= max) remember(key, Date.now() + count.ttl);
          callback(null, count);
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return PostgresStore;
}

/**
 * Adds the hits to their keys' windows (a window that has ended starts again) and answers each
 * key's count and its window's time left. Its text never changes, so it is sent by name: each
 * pooled connection parses and plans it once, and no request builds it (it runs on every
 * counted batch, so it costs a share of every request).
 */
const COUNT_HITS = (() => {
  const table = getTableName(rateLimitWindows);
  const ends = `w.started_at + w.window_ms * interval '1 millisecond'`;
  const ended = `${ends} <= now()`;
  return `insert into ${table} as w (key, window_ms, started_at, hits)
    select key, window_ms, now(), hits from unnest($1::text[], $2::int[], $3::int[]) as t(key, window_ms, hits)
    on conflict (key) do update set
      started_at = case when ${ended} then now() else w.started_at end,
      hits = case when ${ended} then excluded.hits else w.hits + excluded.hits end,
      window_ms = excluded.window_ms
    returning key, hits,
      greatest(0, ceil(extract(epoch from ${ends} - now()) * 1000))::int as ttl_ms`;
})();

/**
 * Adds the hits to their keys' windows in one statement and answers each hit's place in its
 * window and the window's time left. Keys are written in sorted order, so two processes'
 * statements never wait on each other in a cycle.
 */
async function countHits(db: Db, hits: Hit[]): Promise<Count[]> {
  const perKey = new Map<string, { windowMs: number; count: number }>();
  for (const hit of hits) {
    const entry = perKey.get(hit.key);
    if (entry) entry.count += 1;
    else perKey.set(hit.key, { windowMs: hit.windowMs, count: 1 });
  }
  const keys = [...perKey.keys()].sort();
  const { rows } = await db.$client.query<{ key: string; hits: number; ttl_ms: number }>({
    name: 'rate_limit_count',
    text: COUNT_HITS,
    values: [keys, keys.map((k) => perKey.get(k)?.windowMs), keys.map((k) => perKey.get(k)?.count)],
  });
  const totals = new Map(rows.map((r) => [r.key, { hits: r.hits, ttl: r.ttl_ms }]));
  // The hits of one key in this batch take the last places of its count, in the order they came.
  const seen = new Map<string, number>();
  return hits.map((hit) => {
    const total = totals.get(hit.key);
    if (!total) throw new Error(`rate limit: no count for ${hit.key}`);
    const before = seen.get(hit.key) ?? 0;
    seen.set(hit.key, before + 1);
    const inBatch = perKey.get(hit.key)?.count ?? 1;
    return { current: total.hits - inBatch + before + 1, ttl: total.ttl };
  });
}

/** Deletes the windows that have ended (the periodic clean-up); answers how many. */
export async function deleteEndedRateLimitWindows(db: Db): Promise<number> {
  const result = await db.execute(sql`
    delete from ${rateLimitWindows} as w
    where w.started_at + w.window_ms * interval '1 millisecond' < now()`);
  return result.rowCount ?? 0;
}

/**
 * Counts one attempt of something limited apart from the API's requests (a sign-in link asked
 * for an address) in `key`'s window of `windowMs`: answers the attempts the window holds, this
 * one included, and the time until it ends.
 */
export async function countAttempt(db: Db, key: string, windowMs: number): Promise<{ count: number; ttlMs: number }> {
  const [count] = await countHits(db, [{ key, windowMs }]);
  if (!count) throw new Error(`rate limit: no count for ${key}`);
  return { count: count.current, ttlMs: count.ttl };
}
