/**
 * The dashboard's audit log screen in Chromium: the changes an owner's key, a named profile key
 * and the dashboard's own session made, newest first, with names and User-Agents shown as text;
 * filters by object and by days kept in the address; older entries a page at a time; and a profile key's
 * session offered no such screen, and refused it by the API when it goes there anyway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardKit,
  expectAccessible,
  expectCleanRun,
  screenshot,
  signIn,
  startDashboardKit,
} from './dashboard-kit.ts';

let kit: DashboardKit;

/** Text written by whoever named the key or chose the User-Agent: markup that must stay text. */
const KEY_NAME = '<img src=x onerror="document.title=1">Night shift';
const AGENT = '<b>bot</b> scheduler/1.0';

beforeAll(async () => {
  kit = await startDashboardKit({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

afterAll(async () => {
  await kit?.stop();
});

/** A change made with `key`, over HTTP with the User-Agent given. */
async function changeAs(key: string, method: string, path: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${kit.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'user-agent': AGENT },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as { id: string };
}

describe('the audit log', () => {
  it('lists who changed what, from where, shows names as text, filters by object and loads older changes', async () => {
    const profile = await changeAs(kit.ownerKey, 'POST', '/v1/profiles', { name: 'Audited client' });
    const key = await kit.api<{ key: string; id: string }>('POST', `/v1/profiles/${profile.id}/api-keys`, {
      body: { name: KEY_NAME },
    });
    const origin = await changeAs(kit.ownerKey, 'POST', '/v1/connect/redirect-origins', {
      origin: 'https://audited.example.com',
    });
    const hook = await changeAs(key.body.key, 'POST', '/v1/webhooks', {
      url: 'http://127.0.0.1:9/audited',
      events: ['post.published'],
    });
    // More than a page of older changes.
    for (let i = 0; i < 50; i += 1) {
      await changeAs(kit.ownerKey, 'PATCH', `/v1/profiles/${profile.id}`, { name: `Audited client ${i}` });
    }

    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    // Newest first: the dashboard's own sign-in, through the dashboard's session request.
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    await expect.poll(() => rows.first().textContent()).toContain('POST /v1/session');
    await expectAccessible(page);

    // Older changes, a page at a time, down to the first: the profile's creation.
    await page.getByRole('button', { name: 'Load older changes' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(50);
    const oldest = rows.last();
    await expect.poll(() => oldest.textContent()).toContain('POST /v1/profiles');
    expect(await page.getByRole('button', { name: 'Load older changes' }).count()).toBe(0);

    // The webhook's creation: by the profile key, named as its maker named it, as text.
    await page.getByLabel('Object id').fill(hook.id);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.url()).toBe(`${kit.baseUrl}/dashboard/audit-log?object=${hook.id}`);
    await expect.poll(() => rows.count()).toBe(1);
    const row = rows.first();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('POST /v1/webhooks');
    expect(text).toContain(`API key “${KEY_NAME}”`);
    expect(text).toContain(key.body.id);
    expect(text).toContain(AGENT);
    expect(text).toContain('127.0.0.1');
    expect(text).toContain('Audited client 49');
    expect(await page.locator('tbody img, tbody b').count()).toBe(0);
    expect(await page.title()).toBe('Switchboard dashboard');
    await screenshot(page, 'audit-log');
    // The object links to its screen.
    expect(await row.getByRole('link', { name: hook.id }).getAttribute('href')).toBe(`/dashboard/webhooks/${hook.id}`);

    // Days of the user's calendar: none of these changes was made in 2020; all were between yesterday and tomorrow.
    await page.goto(`${kit.baseUrl}/dashboard/audit-log`);
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByLabel('To', { exact: true }).fill('2020-01-31');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.url()).toBe(`${kit.baseUrl}/dashboard/audit-log?from=2020-01-01&to=2020-01-31`);
    await page.getByText('No changes match.').waitFor();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toLocaleDateString('en-CA');
    await page.goto(`${kit.baseUrl}/dashboard/audit-log?from=${day(-1)}&to=${day(1)}`);
    await expect.poll(() => rows.count()).toBe(50);

    // The filter is in the address: a reload shows the same entry; an owner-level change has no profile.
    await page.goto(`${kit.baseUrl}/dashboard/audit-log?object=${origin.id}`);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('POST /v1/connect/redirect-origins');
    expectCleanRun(opened);
    await opened.close();
  });

  it("is not offered to a profile key's session, and the API refuses it there", async () => {
    const key = await kit.api<{ key: string }>('POST', `/v1/profiles/${kit.defaultProfileId}/api-keys`, { body: {} });
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, key.body.key);
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await page.goto(`${kit.baseUrl}/dashboard/audit-log`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('owner_key_required');
    expect(await page.locator('tbody tr').count()).toBe(0);
    expectCleanRun(opened);
    await opened.close();
  });
});
