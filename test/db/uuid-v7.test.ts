import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { createTestDatabase } from '../helpers/database.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** RFC 9562, section 5.7: 48 bits of Unix milliseconds, version 0111, 12 random bits, variant 10, 62 random bits. */
const V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function millisecondsOf(uuid: string): number {
  const match = V7.exec(uuid);
  if (match === null) throw new Error(`${uuid} is not a version 7 UUID`);
  return Number.parseInt(`${match[1]}${match[2]}`, 16);
}

describe('switchboard_uuid_v7(), the key of rows written in bulk (webhook deliveries)', () => {
  it('makes version 7 UUIDs that carry the time they were made and are all distinct', async () => {
    const before = Date.now();
    const { rows } = await database.pool.query<{ id: string }>(
      'select switchboard_uuid_v7()::text as id from generate_series(1, 10000)',
    );
    const after = Date.now();
    const ids = rows.map((r) => r.id);
    for (const id of ids) {
      const at = millisecondsOf(id);
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
    }
    expect(new Set(ids).size).toBe(10000);
  });

  it('carries the time it is given instead, for rows written after the fact', async () => {
    const { rows } = await database.pool.query<{ id: string }>(
      `select switchboard_uuid_v7('2026-10-29T08:15:42.123Z')::text as id`,
    );
    // 2026-10-29T08:15:42.123Z is 1,793,261,742,123 ms after the epoch: 0x01a186baa82b.
    expect(millisecondsOf(rows[0]?.id as string)).toBe(1_793_261_742_123);
    expect(rows[0]?.id.slice(0, 15)).toBe('01a186ba-a82b-7');
  });

  it('orders keys made in different milliseconds by their time, as the index they are added to', async () => {
    const first = (await database.pool.query<{ id: string }>('select switchboard_uuid_v7()::text as id')).rows[0]?.id;
    await database.pool.query('select pg_sleep(0.005)');
    const second = (await database.pool.query<{ id: string }>('select switchboard_uuid_v7()::text as id')).rows[0]?.id;
    const { rows } = await database.pool.query<{ ordered: boolean }>('select $1::uuid < $2::uuid as ordered', [
      first,
      second,
    ]);
    expect(rows[0]?.ordered).toBe(true);
    expect(millisecondsOf(second as string)).toBeGreaterThan(millisecondsOf(first as string));
  });
});
