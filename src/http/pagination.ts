import { type IdKind, looksLikeId } from '../ids.ts';
import { errors } from './errors.ts';

/**
 * Keyset pagination over time-sortable ids: a cursor is the last id of a page, so pages
 * stay stable while rows are inserted concurrently. Cursors are opaque to users.
 */

/**
 * What the position in a list's cursor is: an id of the kind the list holds, or, for a list
 * ordered by time, `<time as ISO 8601 UTC with milliseconds>|<uuid or id of the kind>`.
 */
export type CursorPosition = IdKind | 'timestamp|uuid' | `timestamp|${IdKind}`;

const ISO_MILLISECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function isPosition(position: CursorPosition, after: string): boolean {
  if (!position.startsWith('timestamp|')) return looksLikeId(position as IdKind, after);
  const kind = position.slice('timestamp|'.length);
  const [at = '', id = '', ...rest] = after.split('|');
  return (
    rest.length === 0 &&
    (kind === 'uuid' ? UUID.test(id) : looksLikeId(kind as IdKind, id)) &&
    ISO_MILLISECONDS.test(at) &&
    // Also refuses what the pattern lets through but no clock shows, e.g. 2026-02-30.
    new Date(at).getTime() >= 0 &&
    new Date(at).toISOString() === at
  );
}

export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ after: lastId })).toString('base64url');
}

/**
 * The position a cursor from `encodeCursor` holds, checked against what the list pages
 * over: a cursor the API did not produce is a validation error, never a query. Only the
 * exact text `encodeCursor` gives is accepted (base64url decoding skips stray characters).
 */
export function decodeCursor(cursor: string | undefined, position: CursorPosition): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      parsed &&
      typeof parsed === 'object' &&
      'after' in parsed &&
      typeof parsed.after === 'string' &&
      isPosition(position, parsed.after) &&
      encodeCursor(parsed.after) === cursor
    ) {
      return parsed.after;
    }
  } catch {
    // fall through to the error below
  }
  throw errors.validation([{ field: 'query.cursor', message: 'is not a cursor this API returned' }]);
}

export interface Page<Item> {
  data: Item[];
  next_cursor: string | null;
}

/** Turns `limit + 1` fetched rows into a page: at most `limit` items and the next cursor. */
export function toPage<Row extends { id: string }, Item>(
  rows: Row[],
  limit: number,
  render: (row: Row) => Item,
): Page<Item> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(render),
    next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null,
  };
}
