import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSigned } from '../../bench/signed-post.ts';
import { createFloorTables, dropFloorTables, runDurableFloor } from '../../bench/webhook-floor.ts';
import type { Database } from '../../src/db/connection.ts';
import { verifyWebhook } from '../../src/webhook-signature.ts';
import { createTestDatabase } from '../helpers/database.ts';

/**
 * The webhook bench's floor with writes: each delivery written before it is sent, sent once,
 * its answer recorded in its row; a refused POST fails the run.
 */

const SECRET = 'whsec_floor-test';

let database: Database;
let server: http.Server;
let origin: string;
let agent: Agent;
/** What each arrival found in the database: the delivery's row committed, and no outcome yet. */
const arrivals: { path: string; delivery: string; rowBefore: boolean; outcomeBefore: boolean; signed: boolean }[] = [];
let refusePath = '';

beforeAll(async () => {
  database = await createTestDatabase();
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const delivery = String(req.headers['service-delivery']);
      const { rows } = await database.pool.query<{ status_code: number | null }>(
        'select status_code from bench_floor.deliveries where id = $1',
        [delivery],
      );
      const signed = verifyWebhook(body, req.headers['service-signature'] as string | undefined, SECRET);
      arrivals.push({
        path: req.url ?? '',
        delivery,
        rowBefore: rows.length === 1,
        outcomeBefore: rows[0]?.status_code != null,
        signed,
      });
      res.statusCode = req.url === refusePath ? 500 : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = new Agent();
});
afterAll(async () => {
  await agent.close();
  await new Promise((resolve) => server.close(resolve));
  await database.close();
});

const post = (endpoint: number, body: string, deliveryId: string) =>
  postSigned(agent, `${origin}/b/${endpoint}`, SECRET, body, deliveryId);

describe('runDurableFloor', () => {
  it('sends each delivery once, after its row is committed, and records its answer in that row', async () => {
    arrivals.length = 0;
    refusePath = '';
    await createFloorTables(database.pool);
    const run = await runDurableFloor(database.pool, {
      events: 30,
      endpoints: 3,
      batch: 7,
      concurrency: 5,
      post,
      isInterrupted: () => false,
    });
    expect(run.deliveries).toBe(90);
    expect(run.lastAnswer).toBeGreaterThanOrEqual(run.firstCommit);
    expect(arrivals).toHaveLength(90);
    expect(new Set(arrivals.map((a) => a.delivery)).size).toBe(90);
    expect(arrivals.every((a) => a.rowBefore && !a.outcomeBefore && a.signed)).toBe(true);
    expect(arrivals.filter((a) => a.path === '/b/2')).toHaveLength(30);

    const { rows } = await database.pool.query<{
      status_code: number | null;
      attempted: boolean;
      envelope_id: string;
      event_id: string;
    }>(
      `select d.status_code, d.attempted_at is not null as attempted, (e.body::jsonb)->>'id' as envelope_id, d.event_id
       from bench_floor.deliveries d join bench_floor.events e on e.id = d.event_id`,
    );
    expect(rows).toHaveLength(90);
    expect(rows.every((r) => r.status_code === 200 && r.attempted && r.envelope_id === r.event_id)).toBe(true);
    const events = await database.pool.query('select count(*)::int as n from bench_floor.events');
    expect(events.rows[0]).toEqual({ n: 30 });
    await dropFloorTables(database.pool);
  });

  it('fails the run when a POST is refused, after every other delivery was sent', async () => {
    arrivals.length = 0;
    refusePath = '/b/1';
    await createFloorTables(database.pool);
    await expect(
      runDurableFloor(database.pool, {
        events: 4,
        endpoints: 2,
        batch: 2,
        concurrency: 3,
        post,
        isInterrupted: () => false,
      }),
    ).rejects.toThrow('floor with writes: 4 POSTs failed, the first: answered 500');
    expect(arrivals).toHaveLength(8);
    await dropFloorTables(database.pool);
  });
});
