import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { epochMs } from '../../bench/fanout.ts';
import { postSigned } from '../../bench/signed-post.ts';
import { createFloorTables, dropFloorTables, runDurableFloor, serviceTables } from '../../bench/webhook-floor.ts';
import type { Database } from '../../src/db/connection.ts';
import { owners } from '../../src/modules/owners/tables.ts';
import { webhookEndpoints } from '../../src/modules/webhooks/tables.ts';
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
/** Where the receiver looks for an arriving delivery's row: the floor's own table, or the service's. */
const ownRowOf = async (delivery: string) => {
  const { rows } = await database.pool.query<{ status_code: number | null }>(
    'select status_code from bench_floor.deliveries where id = $1',
    [delivery],
  );
  return { found: rows.length === 1, answered: rows[0]?.status_code != null };
};
let rowOf = ownRowOf;

beforeAll(async () => {
  database = await createTestDatabase();
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const delivery = String(req.headers['service-delivery']);
      const row = await rowOf(delivery);
      const signed = verifyWebhook(body, req.headers['service-signature'] as string | undefined, SECRET);
      arrivals.push({
        path: req.url ?? '',
        delivery,
        rowBefore: row.found,
        outcomeBefore: row.answered,
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
afterEach(() => {
  rowOf = ownRowOf;
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
    expect(run).toMatchObject({ deliveries: 90, recorded: 90 });
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

  it('paced: starts each one-event transaction at its time, sends every delivery once, and gives its wait from commit to send', async () => {
    arrivals.length = 0;
    refusePath = '';
    await createFloorTables(database.pool);
    const before = epochMs();
    const run = await runDurableFloor(database.pool, {
      events: 10,
      endpoints: 2,
      batch: 1,
      concurrency: 4,
      post,
      isInterrupted: () => false,
      pace: { rate: 20, inFlight: 3 },
    });
    const sent = epochMs();
    expect(run).toMatchObject({ deliveries: 20, recorded: 20 });
    expect(new Set(arrivals.map((a) => a.delivery)).size).toBe(20);
    expect(arrivals.every((a) => a.rowBefore && !a.outcomeBefore && a.signed)).toBe(true);
    // The tenth event is due 9 / 20 s after the start: paced, not as fast as possible.
    expect(run.lastCommit - before).toBeGreaterThanOrEqual(450);
    expect(run.waits).toHaveLength(20);
    expect([...run.waits]).toEqual([...run.waits].sort((a, b) => a - b));
    expect(run.waits.every((w) => w >= 0 && w <= sent - before)).toBe(true);
    expect(run.answered).toHaveLength(20);
    // A delivery's answer comes after its POST was sent: the n-th shortest wait to an answer is no shorter.
    expect(run.answered.every((a, i) => a >= (run.waits[i] ?? Number.POSITIVE_INFINITY) && a <= sent - before)).toBe(
      true,
    );
    const events = await database.pool.query('select count(*)::int as n from bench_floor.events');
    expect(events.rows[0]).toEqual({ n: 10 });
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

  it("writes into the service's tables as its modules do: the event, its deliveries, each answer as a first attempt", async () => {
    arrivals.length = 0;
    refusePath = '';
    const ownerId = 'own_floor_test';
    const endpointIds = ['whk_floor_a', 'whk_floor_b'];
    await database.db
      .insert(owners)
      .values({ id: ownerId, name: 'Floor', email: 'floor@example.test', createdAt: new Date() });
    await database.db.insert(webhookEndpoints).values(
      endpointIds.map((id) => ({
        id,
        ownerId,
        url: 'http://example.test',
        events: ['post.published'],
        secretSealed: 'sealed',
        createdAt: new Date(),
        updatedAt: new Date(),
      })),
    );
    rowOf = async (delivery) => {
      const { rows } = await database.pool.query<{ attempt_count: number }>(
        'select attempt_count from webhook_deliveries where id = $1',
        [delivery],
      );
      return { found: rows.length === 1, answered: (rows[0]?.attempt_count ?? 0) > 0 };
    };
    const run = await runDurableFloor(database.pool, {
      events: 5,
      endpoints: 2,
      batch: 2,
      concurrency: 3,
      post,
      isInterrupted: () => false,
      writes: serviceTables(ownerId, endpointIds),
    });
    expect(run).toMatchObject({ deliveries: 10, recorded: 10 });
    expect(arrivals).toHaveLength(10);
    expect(arrivals.every((a) => a.rowBefore && !a.outcomeBefore && a.signed)).toBe(true);

    const { rows } = await database.pool.query<{
      endpoint_id: string;
      status: string;
      attempt_count: number;
      next_attempt_at: Date | null;
      attempt: { status_code: number; succeeded: boolean; error: null; attempted_at: string };
      envelope_id: string;
      event_id: string;
      type: string;
    }>(
      `select d.endpoint_id, d.status, d.attempt_count, d.next_attempt_at, d.attempts->0 as attempt,
         (e.body::jsonb)->>'id' as envelope_id, d.event_id, e.type
       from webhook_deliveries d join events e on e.id = d.event_id where d.owner_id = $1`,
      [ownerId],
    );
    expect(rows).toHaveLength(10);
    expect(rows.filter((r) => r.endpoint_id === 'whk_floor_b')).toHaveLength(5);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'succeeded', attempt_count: 1, next_attempt_at: null, type: 'post.published' });
      expect(r.attempt).toMatchObject({ status_code: 200, succeeded: true, error: null });
      // As the service writes it (toISOString): a time in UTC, to the millisecond.
      expect(r.attempt.attempted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(r.envelope_id).toBe(r.event_id);
    }
  });
});
