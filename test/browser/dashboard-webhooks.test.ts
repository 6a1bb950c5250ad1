/**
 * The dashboard's webhook screens in Chromium, against a real receiver: adding an endpoint
 * (its secret shown once), a test event and its resend as the receiver got them, and
 * re-enabling an endpoint the service disabled after 50 failures.
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { webhookEndpoints } from '../helpers/tables.ts';
import {
  type DashboardKit,
  expectAccessible,
  expectCleanRun,
  screenshot,
  signIn,
  startDashboardKit,
} from './dashboard-kit.ts';

let kit: DashboardKit;
let receiver: Receiver;
/** The receiver's answer: markup, and longer than the start a delivery shows. */
const ANSWER = `<b>thanks</b> ${'x'.repeat(600)}`;

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  disabled_reason: string | null;
  disabled_at: string | null;
  consecutive_failures: number;
}

beforeAll(async () => {
  kit = await startDashboardKit({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  receiver = await startReceiver((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' }).end(ANSWER);
  });
});

afterAll(async () => {
  await receiver?.close();
  await kit?.stop();
});

describe('webhooks', () => {
  it('adds an endpoint with its secret shown once, sends a test event and resends it', async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'post.published' }).check();
    await page.getByRole('checkbox', { name: 'webhook.test' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretShown = page.locator('code.secret');
    await secretShown.waitFor();
    const secret = (await secretShown.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(await page.getByText('This secret will not be shown again.', { exact: false }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'webhooks-added');

    const listed = await kit.api<{ data: Endpoint[] }>('GET', '/v1/webhooks');
    expect(listed.body.data.map((e) => [e.url, e.events, e.active])).toEqual([
      [receiver.url, ['post.published', 'webhook.test'], true],
    ]);
    const endpointId = listed.body.data[0]?.id ?? '';

    await page.getByRole('link', { name: receiver.url }).first().click();
    await page.getByRole('heading', { name: receiver.url, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    const [first] = await receiver.waitFor(1);
    const envelope = JSON.parse(first?.body.toString('utf8') ?? '{}');
    expect(envelope.type).toBe('webhook.test');
    // Signed with the secret the page showed.
    const signature = String(first?.headers['service-signature']);
    const timestamp = /^t=(\d+),/.exec(signature)?.[1];
    const expected = createHmac('sha256', secret)
      .update(`${timestamp}.${first?.body.toString('utf8')}`)
      .digest('hex');
    expect(signature).toBe(`t=${timestamp},v1=${expected}`);

    // The delivery with its attempt: status, duration, the start of the answer as text.
    const delivery = page.locator('li.delivery').first();
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return await delivery.textContent();
      })
      .toContain('succeeded');
    expect(await delivery.textContent()).toContain('200');
    expect(await delivery.locator('pre.answer').textContent()).toBe(`${ANSWER.slice(0, 500)}…`);
    expect(await delivery.locator('pre.answer b').count()).toBe(0);
    await delivery.getByRole('button', { name: 'Show all 614 characters' }).click();
    expect(await delivery.locator('pre.answer').textContent()).toBe(ANSWER);
    await expectAccessible(page);
    await screenshot(page, 'webhook-deliveries');

    await delivery.getByRole('button', { name: /^Resend/ }).click();
    const both = await receiver.waitFor(2);
    const again = JSON.parse(both[1]?.body.toString('utf8') ?? '{}');
    // A resend is the same event (same id), delivered anew.
    expect(again.id).toBe(envelope.id);
    expect(both[1]?.headers['service-delivery']).not.toBe(first?.headers['service-delivery']);
    await expect.poll(() => page.locator('li.delivery').count()).toBe(2);

    const deliveries = await kit.api<{ data: { event_id: string }[] }>('GET', `/v1/webhooks/${endpointId}/deliveries`);
    expect(deliveries.body.data.map((d) => d.event_id)).toEqual([envelope.id, envelope.id]);
    expectCleanRun(opened);
    await opened.close();
  });

  it('marks an endpoint the service disabled with when and why, and enables it again', async () => {
    const created = await kit.api<Endpoint>('POST', '/v1/webhooks', {
      body: { url: `${receiver.url}?second`, events: ['post.failed'] },
    });
    const disabledAt = new Date('2026-11-20T08:30:00.000Z');
    const reason = '50 failed attempts in a row; last: HTTP 503';
    // As the delivery engine leaves an endpoint after its 50th failure in a row.
    await kit.service.database.db
      .update(webhookEndpoints)
      .set({ active: false, consecutiveFailures: 50, disabledReason: reason, disabledAt })
      .where(eq(webhookEndpoints.id, created.body.id));

    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/webhooks`);
    const row = page.locator('tbody tr', { hasText: `${receiver.url}?second` });
    await row.waitFor();
    expect(await row.textContent()).toContain('disabled by the service');
    expect(await row.textContent()).toContain(reason);
    expect(await row.locator('time').getAttribute('datetime')).toBe(disabledAt.toISOString());
    await expectAccessible(page);
    await screenshot(page, 'webhooks-disabled-by-service');

    await row.getByRole('link').click();
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    const after = await kit.api<Endpoint>('GET', `/v1/webhooks/${created.body.id}`);
    expect(after.body).toMatchObject({
      active: true,
      consecutive_failures: 0,
      disabled_reason: null,
      disabled_at: null,
    });
    expect(await page.locator('main').textContent()).toContain('active');
    expectCleanRun(opened);
    await opened.close();
  });
});
