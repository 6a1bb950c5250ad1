import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emit } from '../../src/modules/events/service.ts';
import { closeStartupRegistries, startupRegistry } from '../../src/registry.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
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

/** The deliver_webhooks jobs naming these deliveries (graphile-worker's public view leaves the payload out). */
async function jobsFor(deliveryIds: string[]): Promise<unknown[]> {
  const result = await t.database.pool.query(
    `select j.payload from graphile_worker._private_jobs j
     join graphile_worker._private_tasks k on k.id = j.task_id
     where k.identifier = 'deliver_webhooks'
       and exists (select 1 from json_array_elements_text(j.payload->'delivery_ids') d where d = any($1))`,
    [deliveryIds],
  );
  return result.rows.map((r) => r.payload);
}

describe('emit', () => {
  it('writes the event, a delivery per endpoint that wants it and one job, all in the caller transaction', async () => {
    let seenOutside: unknown[] | undefined;
    const { id } = await t.database.db.transaction(async (tx) => {
      const emitted = await emit(tx, {
        ownerId: owner.ownerId,
        profileId: owner.defaultProfileId,
        type: 'post.published',
        data: { post_id: 'post_1' },
      });
      // Another connection sees nothing of it before the commit.
      seenOutside = await t.database.db.select().from(events).where(eq(events.id, emitted.id));
      return emitted;
    });
    expect(seenOutside).toEqual([]);
    const [event] = await t.database.db.select().from(events).where(eq(events.id, id));
    expect(event?.type).toBe('post.published');
    const deliveries = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, id));
    expect(deliveries.map((d) => [d.endpointId, d.status])).toEqual([[endpointId, 'pending']]);
    expect(await jobsFor(deliveries.map((d) => d.id))).toEqual([
      { delivery_ids: deliveries.map((d) => d.id), attempts_made: 0 },
    ]);
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
