import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Queryable } from '../db/connection.ts';

/**
 * Authenticating every request against the database would double the work of a cheap
 * read, so each process caches what a key and a profile reference resolve to. A change
 * that can revoke access (a key deleted, a profile deleted or renamed) sends a NOTIFY in
 * its transaction; every process listens and forgets everything it cached. The process
 * making the change also forgets at once after its commit. While the listener is not
 * connected nothing is cached, so a missed notification can never keep a revoked key alive.
 */

const CHANNEL = 'switchboard_auth_changed';
const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

let listening = false;
/** Bumped on every change; a lookup that started before a bump does not store its answer. */
let epoch = 0;
const entries = new Map<string, Entry<unknown>>();

export function cacheEpoch(): number {
  return epoch;
}

export function cached<T>(key: string): T | undefined {
  if (!listening) return undefined;
  const entry = entries.get(key);
  if (!entry) return undefined;
  if (entry.expiresAt < Date.now()) {
    entries.delete(key);
    return undefined;
  }
  return entry.value as T;
}

export function remember<T>(key: string, value: T, startedAtEpoch: number): void {
  if (!listening || startedAtEpoch !== epoch) return;
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(key, { value, expiresAt: Date.now() + TTL_MS });
}

/** Forgets everything this process cached. */
export function forgetCachedAuth(): void {
  epoch += 1;
  entries.clear();
}

/** Tells every process, when the caller's transaction commits, to forget cached authentication. */
export async function notifyAuthChanged(db: Queryable): Promise<void> {
  await db.execute(sql`select pg_notify(${CHANNEL}, '')`);
}

/** Listens for changes; returns a function that stops listening. Reconnects on its own. */
export function listenForAuthChanges(url: string, log: (message: string) => void): () => Promise<void> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = 500;

  const lost = (reason: string) => {
    listening = false;
    forgetCachedAuth();
    client?.removeAllListeners();
    client?.end().catch(() => {});
    client = undefined;
    if (stopped) return;
    log(`auth cache disabled until the change listener reconnects: ${reason}`);
    retry = setTimeout(connect, delay);
    delay = Math.min(delay * 2, 30_000);
  };

  const connect = () => {
    const c = new pg.Client({ connectionString: url, application_name: 'switchboard' });
    client = c;
    c.on('notification', forgetCachedAuth);
    c.on('error', (error) => lost(error.message));
    c.on('end', () => client === c && lost('connection ended'));
    c.connect()
      .then(() => c.query(`listen ${CHANNEL}`))
      .then(() => {
        if (stopped) return;
        forgetCachedAuth();
        listening = true;
        delay = 500;
      })
      .catch((error: Error) => client === c && lost(error.message));
  };

  connect();
  return async () => {
    stopped = true;
    listening = false;
    if (retry) clearTimeout(retry);
    const c = client;
    client = undefined;
    c?.removeAllListeners();
    c?.on('error', () => {});
    await c?.end().catch(() => {});
  };
}
