import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedWaits, recordWaits, waitsBetween } from '../../bench/waits.ts';
import type { Database } from '../../src/db/connection.ts';
import { createTestDatabase } from '../helpers/database.ts';

/** The benches' record of what a process waited for: each statement and each HTTP request once. */

let database: Database;
let server: http.Server;
let origin: string;

beforeAll(async () => {
  database = await createTestDatabase();
  server = http.createServer((_req, res) => setTimeout(() => res.end('ok'), 30));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await database.close();
});

describe('recordWaits', () => {
  it("times a pooled statement once (the pool's, not its client's too), each statement of a transaction, a failed one, and an HTTP request", async () => {
    // The pool's connection made before: its setup is no statement of the window.
    await database.pool.query('select 1');
    recordWaits();
    const from = Date.now();
    await database.pool.query('select pg_sleep(0.05)');
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
    });
    await expect(database.pool.query('select * from no_such_table')).rejects.toThrow(/no_such_table/);
    const answer = await request(`${origin}/slow`);
    expect(await answer.body.text()).toBe('ok');
    const to = Date.now();
    const totals = waitsBetween(recordedWaits(), from, to);
    // pg_sleep, then begin, select 1 and commit on the transaction's client, then the failed one.
    expect(totals.statement.count).toBe(5);
    expect(totals.statement.ms).toBeGreaterThanOrEqual(50);
    expect(totals.http.count).toBe(1);
    // The server answers after 30 ms.
    expect(totals.http.ms).toBeGreaterThanOrEqual(30);
    // Waits begun outside the window are left out.
    expect(waitsBetween(recordedWaits(), from - 60_000, from - 1)).toEqual({
      statement: { count: 0, ms: 0 },
      http: { count: 0, ms: 0 },
    });
  });
});
