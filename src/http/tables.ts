import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, timestampColumn } from '../db/columns.ts';

/**
 * Responses to POST requests sent with an `Idempotency-Key`, kept 24 hours so a retry
 * gets the first answer instead of doing the work twice. `api_key_id` names the key that
 * sent the request; the api-keys module forgets a key's answers when it deletes the key
 * (forgetIdempotentAnswers), and the hourly job deletes whatever is past 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    apiKeyId: text('api_key_id').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path, profile header and body: the same key with another request is an error. */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still being handled. */
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * Each rate-limited caller's count in its current window (`key`: an accepted key's or
 * session's hash, or an address), shared by every API process on the database. A window
 * that ended starts again at the next request; the periodic clean-up deletes ended ones.
 * Unlogged (see its migration): a count lost in a crash only lets a caller start afresh.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    key: text('key').primaryKey(),
    windowMs: integer('window_ms').notNull(),
    startedAt: timestampColumn('started_at').notNull(),
    hits: integer('hits').notNull(),
  },
  (t) => [index('rate_limit_windows_started_idx').on(t.startedAt)],
);
