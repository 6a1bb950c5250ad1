import { errors } from './errors.ts';

/**
 * Keyset pagination over time-sortable ids: a cursor is the last id of a page, so pages
 * stay stable while rows are inserted concurrently. Cursors are opaque to users.
 */

export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ after: lastId })).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && 'after' in parsed && typeof parsed.after === 'string') {
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
