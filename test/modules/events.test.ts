import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emit, emitAll } from '../../src/modules/events/service.ts';
import { closeStartupRegistries, startupRegistry } from '../../src/registry.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { events, webhookDeliveries } from '../helpers/tables.ts';

/**
 * The outbox: emit(tx, ...) writes the event and runs the subscribers (the webhooks module's
 * fan-out) inside the caller's transaction, so the event, its deliveries and their job exist
 * exactly when the change they report commits.
 */

let t: TestApp;
let owner: TestOwner;
let endpointId: string;

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  owner = await t.createOwner();
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: 'http://127.0.0.1:9/hook', events: ['post.published'] },
  });
  endpointId = res.json().id;
});
afterAll(() => t.close());

/** The deliver_webhooks jobs in the queue, through graphile-worker's public jobs view (it shows no payload). */
async function deliveryJobs(): Promise<{ id: string; key: string | null }[]> {
  const result = await t.database.pool.query(
    `select id, key from graphile_worker.jobs where task_identifier = 'deliver_webhooks' order by id`,
  );
  return result.rows;
}

describe('emit', () => {
  it('writes the event, a delivery per endpoint that wants it and one job, all in the caller transaction', async () => {
    const jobsBefore = await deliveryJobs();
    let seenOutside: unknown[] | undefined;
    let jobsSeenOutside: unknown[] | undefined;
    const { id } = await t.database.db.transaction(async (tx) => {
      const emitted = await emit(tx, {
        ownerId: owner.ownerId,
        profileId: owner.defaultProfileId,
        type: 'post.published',
        data: { post_id: 'post_1' },
      });
      // Another connection sees nothing of it before the commit.
      seenOutside = await t.database.db.select().from(events).where(eq(events.id, emitted.id));
      jobsSeenOutside = await deliveryJobs();
      return emitted;
    });
    expect(seenOutside).toEqual([]);
    expect(jobsSeenOutside).toEqual(jobsBefore);
    const [event] = await t.database.db.select().from(events).where(eq(events.id, id));
    expect(event?.type).toBe('post.published');
    const deliveries = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, id));
    expect(deliveries.map((d) => [d.endpointId, d.status, d.attemptCount])).toEqual([[endpointId, 'pending', 0]]);
    const known = new Set(jobsBefore.map((j) => j.id));
    const queued = (await deliveryJobs()).filter((j) => !known.has(j.id));
    expect(queued).toEqual([{ id: expect.any(String), key: null }]);

    // What that one job holds shows when it runs: the event's delivery, not attempted before
    // (its receiver's port is closed, so the attempt fails and a retry is queued for it).
    await t.startWorker();
    const [delivery] = deliveries;
    const attempted = await eventually(async () => {
      const [row] = await t.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, delivery?.id as string));
      return row?.attemptCount === 1 ? row : undefined;
    });
    await t.stopWorkers();
    expect(attempted.status).toBe('pending');
    // The event's job is done; what is left of it is its delivery's retry (other deliveries' retries aside).
    const retry = `deliver_webhook:${delivery?.id}`;
    const left = (await deliveryJobs()).filter((j) => !known.has(j.id) && (j.key === null || j.key === retry));
    expect(left).toEqual([{ id: expect.any(String), key: retry }]);
  });

  it('leaves no event, delivery or job when the caller transaction rolls back', async () => {
    let emittedId = '';
    const before = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'deliver_webhooks'`,
    );
    await expect(
      t.database.db.transaction(async (tx) => {
        emittedId = (await emit(tx, { ownerId: owner.ownerId, profileId: null, type: 'post.published', data: {} })).id;
        throw new Error('the change failed after emitting');
      }),
    ).rejects.toThrow('the change failed after emitting');
    expect(await t.database.db.select().from(events).where(eq(events.id, emittedId))).toEqual([]);
    expect(
      await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, emittedId)),
    ).toEqual([]);
    const after = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'deliver_webhooks'`,
    );
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
  });
});

describe('emitAll', () => {
  it('sends each of a change’s events to the endpoints that want it, bound ones their own profile’s only, each once', async () => {
    const other = await t.createOwner();
    const receiver = await startReceiver();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(other.key),
      payload: { name: 'Second client' },
    });
    expect(created.statusCode).toBe(201);
    const second: string = created.json().id;
    const endpoint = async (path: string, events: string[], profileId?: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: auth(other.key),
        payload: { url: `${receiver.url}/${path}`, events, ...(profileId ? { profile_id: profileId } : {}) },
      });
      expect(res.statusCode).toBe(201);
    };
    await endpoint('unbound', ['comment.created', 'profile.deleted']);
    await endpoint('second', ['comment.created', 'profile.deleted'], second);
    await endpoint('published-only', ['post.published']);

    // 70 comment.created events in one change, half in each profile, and a profile.deleted of
    // the second profile: 71 deliveries to the unbound endpoint, 35 to the second profile's.
    const list = Array.from({ length: 70 }, (_, i) => ({
      ownerId: other.ownerId,
      profileId: i % 2 === 0 ? other.defaultProfileId : second,
      type: 'comment.created' as const,
      data: { n: i },
    }));
    const emitted = await t.database.db.transaction((tx) =>
      emitAll(tx, [...list, { ownerId: other.ownerId, profileId: second, type: 'profile.deleted', data: {} }]),
    );
    expect(emitted).toHaveLength(71);
    await t.startWorker();
    try {
      await receiver.waitFor(71 + 35);
      // Nothing more comes: every delivery has been attempted once, and none is pending.
      await eventually(async () => {
        const pending = await t.database.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.ownerId, other.ownerId));
        return pending.every((d) => d.status === 'succeeded') ? pending : undefined;
      });
    } finally {
      await t.stopWorkers();
      await receiver.close();
    }
    const seen = receiver.received.map((r) => {
      const body = JSON.parse(r.body.toString('utf8'));
      return `${r.path.split('/').at(-1)} ${body.type} ${body.data.n ?? '-'}`;
    });
    const expected = [
      ...list.map((_, i) => `unbound comment.created ${i}`),
      'unbound profile.deleted -',
      ...list.flatMap((_, i) => (i % 2 === 1 ? [`second comment.created ${i}`] : [])),
    ];
    expect(seen.sort()).toEqual(expected.sort());
    expect(new Set(receiver.received.map((r) => r.headers['service-delivery'])).size).toBe(71 + 35);
  });
});

describe('a startup registry (event subscribers, deletion steps, move checks)', () => {
  it('refuses to be used before the modules are installed, and to take items after', () => {
    const registry = startupRegistry<string>('test registry');
    registry.register('first');
    expect(() => registry.items()).toThrow('test registry: used before the modules were installed (installModules)');
    closeStartupRegistries();
    expect(registry.items()).toEqual(['first']);
    expect(() => registry.register('late')).toThrow('test registry: registered after start');
  });
});
