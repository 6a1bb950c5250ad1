import pg from 'pg';

/**
 * Each process caches reads that change rarely and are needed on every request: what an
 * API key and a profile reference resolve to, and profile lists. Without it, every
 * request would pay database round trips that cost far more than the work it asks for.
 *
 * Triggers on `profiles` and `api_keys` send a NOTIFY with every committed change (see
 * the `cache_triggers` migration), so no write path can forget to; every process listens
 * and forgets everything it cached. A process that makes a change also forgets at once
 * after its own commit, so its caller reads what it wrote. While the listener is not
 * connected nothing is cached, so a missed notification can never keep a revoked key
 * alive or a stale list in use.
 */

const CHANNEL = 'switchboard_cache_changed';

/**
 * Channels whose notifications name the row that changed (the payload: an account's id; empty:
 * every row), for modules that keep answers per row (src/db/migrations/0026_insights_changed.sql).
 */
export const ROW_CHANNELS = ['switchboard_insights_changed', 'switchboard_account_changed'] as const;
export type RowChannel = (typeof ROW_CHANNELS)[number];

/** Told the id a notification names, or null: forget every row (a notice may have been missed). */
type RowHandler = (id: string | null) => void;
const rowHandlers = new Set<{ channels: ReadonlySet<string>; handler: RowHandler }>();

/**
 * Calls `handler` with the id of each row a notification on `channels` names, and with null
 * whenever notifications may have been missed (the listener connecting or lost). Answers a
 * function that stops it.
 */
export function onRowChanges(channels: readonly RowChannel[], handler: RowHandler): () => void {
  const entry = { channels: new Set<string>(channels), handler };
  rowHandlers.add(entry);
  return () => {
    rowHandlers.delete(entry);
  };
}

/** Whether changes are heard now: while not, a module must keep nothing it would need to be told to forget. */
export function hearingChanges(): boolean {
  return listening;
}

function forgetEveryRow(): void {
  for (const { handler } of rowHandlers) handler(null);
}

function heard(channel: string, payload: string | undefined): void {
  if (channel === CHANNEL) {
    forgetCachedReads();
    return;
  }
  for (const entry of rowHandlers) {
    if (entry.channels.has(channel)) entry.handler(payload ? payload : null);
  }
}
const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

let listening = false;
/** Bumped on every change; a read that started before a bump does not store its answer. */
let epoch = 0;
const entries = new Map<string, Entry<unknown>>();

/**
 * The cached value of `key`, or else `load()`'s, remembered unless a change happened
 * while it was loading. `remember` says whether an answer may be kept (e.g. not a miss).
 */
export async function cachedRead<T>(
  key: string,
  load: () => Promise<T>,
  remember: (value: T) => boolean = () => true,
): Promise<T> {
  if (listening) {
    const entry = entries.get(key);
    if (entry && entry.expiresAt >= Date.now()) return entry.value as T;
    entries.delete(key);
  }
  const startedAt = epoch;
  const value = await load();
  if (listening && startedAt === epoch && remember(value)) {
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, { value, expiresAt: Date.now() + TTL_MS });
  }
  return value;
}

/** Forgets everything this process cached; call after committing a change it caches. */
export function forgetCachedReads(): void {
  epoch += 1;
  entries.clear();
}

/** Listens for changes; returns a function that stops listening. Reconnects on its own. */
export function listenForChanges(url: string, log: (message: string) => void): () => Promise<void> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = 500;

  const lost = (reason: string) => {
    listening = false;
    forgetCachedReads();
    forgetEveryRow();
    client?.removeAllListeners();
    client?.on('error', () => {});
    client?.end().catch(() => {});
    client = undefined;
    if (stopped) return;
    log(`read cache off until the change listener reconnects: ${reason}`);
    retry = setTimeout(connect, delay);
    delay = Math.min(delay * 2, 30_000);
  };

  const connect = () => {
    // Keepalive probes find a connection broken without a word (a NAT's idle timeout) sooner.
    const c = new pg.Client({ connectionString: url, application_name: 'switchboard', keepAlive: true });
    client = c;
    c.on('notification', (message) => heard(message.channel, message.payload));
    c.on('error', (error) => lost(error.message));
    c.on('end', () => client === c && lost('connection ended'));
    c.connect()
      .then(() => c.query([CHANNEL, ...ROW_CHANNELS].map((channel) => `listen ${channel};`).join(' ')))
      .then(() => {
        if (stopped) return;
        forgetCachedReads();
        forgetEveryRow();
        listening = true;
        delay = 500;
      })
      .catch((error: Error) => client === c && lost(error.message));
  };

  connect();
  return async () => {
    stopped = true;
    listening = false;
    forgetEveryRow();
    if (retry) clearTimeout(retry);
    const c = client;
    client = undefined;
    c?.removeAllListeners();
    c?.on('error', () => {});
    await c?.end().catch(() => {});
  };
}
