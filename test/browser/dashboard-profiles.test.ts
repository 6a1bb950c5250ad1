/**
 * The dashboard's sign-in and profile screens in Chromium: signing in with each kind of key,
 * what the page keeps afterwards, profiles and their API keys, and a cross-site request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** Markup in a name must be shown as text. */
const MARKUP_NAME = '<img src=x onerror="document.title=1">Ada & Co';

beforeAll(async () => {
  kit = await startDashboardKit();
});

afterAll(async () => {
  await kit?.stop();
});

interface Profile {
  id: string;
  name: string;
}

describe('signing in', () => {
  it('with an owner key: the profiles screen, the default first, and the key kept nowhere in the page', async () => {
    const opened = await kit.open();
    const { page, context } = opened;
    const answer = await page.goto(`${kit.baseUrl}/dashboard`);
    const csp = answer?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");

    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
    const firstRow = page.locator('tbody tr').first();
    await expect.poll(() => firstRow.textContent()).toContain('default');

    // The key is in no storage, no input and nowhere in the document.
    const kept = await page.evaluate(() => {
      const w = globalThis as unknown as {
        localStorage: { length: number };
        sessionStorage: { length: number };
        document: { documentElement: { outerHTML: string }; querySelectorAll(s: string): { value: string }[] };
      };
      return {
        local: w.localStorage.length,
        session: w.sessionStorage.length,
        html: w.document.documentElement.outerHTML,
        inputs: Array.from(w.document.querySelectorAll('input')).map((i) => i.value),
      };
    });
    expect(kept.local).toBe(0);
    expect(kept.session).toBe(0);
    expect(kept.html).not.toContain(kit.ownerKey);
    expect(kept.inputs).not.toContain(kit.ownerKey);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'sb_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: false, path: '/' });
    expect(session?.value).not.toContain(kit.ownerKey);

    await expectAccessible(page);
    await screenshot(page, 'profiles');
    expectCleanRun(opened);
    await opened.close();
  });

  it('refuses a wrong key with the API message and its request id', async () => {
    const opened = await kit.open();
    const { page } = opened;
    await page.goto(`${kit.baseUrl}/dashboard`);
    await page.getByLabel('API key').fill('sb_owner_not-a-real-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('Send a valid API key');
    expect(await alert.textContent()).toMatch(/request id req_/);
    await screenshot(page, 'sign-in-refused');
    expectCleanRun(opened);
    await opened.close();
  });

  it('with a profile key: only its profile, no owner-only screen, and sign-out ends the session', async () => {
    const created = await kit.api<Profile>('POST', '/v1/profiles', { body: { name: 'Profile key client' } });
    const key = await kit.api<{ key: string }>('POST', `/v1/profiles/${created.body.id}/api-keys`, { body: {} });
    const opened = await kit.open();
    const { page, context } = opened;
    await signIn(kit, page, key.body.key);
    await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
    expect(page.url()).toBe(`${kit.baseUrl}/dashboard/profiles/${created.body.id}`);
    expect(await page.getByRole('link', { name: 'Connect settings' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'API keys' }).count()).toBe(0);
    await page.getByRole('heading', { name: 'Accounts' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'profile-key-session');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await context.cookies()).find((c) => c.name === 'sb_session')).toBeUndefined();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expectCleanRun(opened);
    await opened.close();
  });
});

describe('profiles', () => {
  it('creates a profile, then an API key shown once that works against /v1, then revokes it', async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(MARKUP_NAME);
    await page.getByLabel('External id (optional)').fill('client-ada');
    await page.getByRole('button', { name: 'Create profile' }).click();
    const link = page.getByRole('link', { name: MARKUP_NAME, exact: true });
    await link.waitFor();
    // Shown as text: no image element was made of the name, and its handler never ran.
    expect(await page.locator('tbody img').count()).toBe(0);
    expect(await page.title()).toBe('Switchboard dashboard');

    const listed = await kit.api<{ data: Profile[] }>('GET', '/v1/profiles?external_id=client-ada');
    expect(listed.body.data.map((p) => p.name)).toEqual([MARKUP_NAME]);
    const profileId = listed.body.data[0]?.id ?? '';

    await link.click();
    await page.getByRole('heading', { name: MARKUP_NAME, level: 1 }).waitFor();
    await page.getByLabel('Key name (optional)').fill('Reporting tool');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const revealed = page.locator('code.secret');
    await revealed.waitFor();
    const key = (await revealed.textContent()) ?? '';
    expect(key).toMatch(/^sb_profile_[A-Za-z0-9_-]{43}$/);
    expect(await page.getByText('This key will not be shown again.').count()).toBe(1);
    await page.getByRole('button', { name: 'Copy' }).first().waitFor();
    await expectAccessible(page);
    await screenshot(page, 'profile-menu-new-key');

    const withKey = await kit.api<{ data: unknown[] }>('GET', '/v1/accounts', { key });
    expect(withKey.status).toBe(200);
    const otherProfile = await kit.api('GET', '/v1/accounts', { key, profile: kit.defaultProfileId });
    expect(otherProfile.status).toBe(403);

    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.locator('code.secret').count()).toBe(0);
    await page.getByRole('button', { name: /^Revoke key sb_profile_/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.getByText('No profile keys yet.').count()).toBe(1);
    expect((await kit.api('GET', '/v1/accounts', { key })).status).toBe(401);

    expect(profileId).toMatch(/^prf_/);
    expectCleanRun(opened);
    await opened.close();
  });

  it('renames a profile, and deletes one only after a confirmation naming it; the default cannot be deleted', async () => {
    const created = await kit.api<Profile>('POST', '/v1/profiles', { body: { name: 'To be renamed' } });
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    const defaultRow = page.locator('tbody tr').first();
    await expect.poll(() => defaultRow.textContent()).toContain('The default profile cannot be deleted');
    expect(await defaultRow.getByRole('button', { name: /^Delete/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'Rename To be renamed' }).click();
    await page.getByLabel('New name for To be renamed').fill('Renamed client');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Renamed client', exact: true }).waitFor();
    expect((await kit.api<Profile>('GET', `/v1/profiles/${created.body.id}`)).body.name).toBe('Renamed client');

    await page.locator('tbody').getByRole('button', { name: 'Delete Renamed client' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('Delete the profile “Renamed client”?');
    await screenshot(page, 'profile-delete-confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The dialog closes after the click is handled, not within it: wait for what the user sees.
    await dialog.waitFor({ state: 'hidden' });
    expect((await kit.api('GET', `/v1/profiles/${created.body.id}`)).status).toBe(200);
    await page.locator('tbody').getByRole('button', { name: 'Delete Renamed client' }).click();
    await dialog.getByRole('button', { name: 'Delete Renamed client' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Renamed client', exact: true }).count()).toBe(0);
    expect((await kit.api('GET', `/v1/profiles/${created.body.id}`)).status).toBe(404);
    expectCleanRun(opened);
    await opened.close();
  });
});

describe('a session', () => {
  it('that ends elsewhere shows the sign-in page at its next request, and signing in again goes on there', async () => {
    const created = await kit.api<Profile>('POST', '/v1/profiles', { body: { name: 'Ended session client' } });
    const key = await kit.api<{ id: string; key: string }>('POST', `/v1/profiles/${created.body.id}/api-keys`, {
      body: {},
    });
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, key.body.key);
    await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
    await page.getByText('No accounts yet: send your client a connect link.').waitFor();
    // The heading shows before the screen's reads (accounts, the profiles for a move) are
    // answered; one still in flight when the key is revoked would end the session before the
    // click below, and the link would be gone. Wait until every read is answered.
    await opened.settled();
    // A session ends when its key is revoked (docs/dashboard.md); the page learns it from a 401.
    const revoked = await kit.api('DELETE', `/v1/profiles/${created.body.id}/api-keys/${key.body.id}`);
    expect(revoked.status).toBe(204);
    // The Posts screen asks for its profiles, accounts and posts at once: whichever is refused
    // first ends the session, and the screen may never send the others.
    const [refused] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/v1/') && r.status() === 401),
      page.getByRole('link', { name: 'Posts' }).click(),
    ]);
    expect(['/v1/profiles', '/v1/accounts', '/v1/posts']).toContain(new URL(refused.url()).pathname);
    await page.getByRole('status').filter({ hasText: 'Your session has ended' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);

    await page.getByLabel('API key').fill(kit.ownerKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Posts', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/posts');
    expectCleanRun(opened);
    await opened.close();
  });

  it("begun while the signed-out page's first read of the catalogue is still on its way, is not ended by that read's 401", async () => {
    const opened = await kit.open();
    const { page } = opened;
    // The page asks for the session and the catalogue at once; the catalogue's answer, a 401
    // without a session, comes only once the sign-in below has succeeded (a slow machine).
    let signedIn: () => void = () => {};
    const afterSignIn = new Promise<void>((resolve) => {
      signedIn = resolve;
    });
    let first = true;
    await page.route('**/v1/platforms', async (route) => {
      if (!first) return await route.continue();
      first = false;
      const response = await route.fetch();
      expect(response.status()).toBe(401);
      await afterSignIn;
      await route.fulfill({ response });
    });
    await page.goto(`${kit.baseUrl}/dashboard`);
    await page.getByLabel('API key').fill(kit.ownerKey);
    const [session] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/session' && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(session.status()).toBe(201);
    signedIn();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expectCleanRun(opened);
    await opened.close();
  });

  it('says so when the service cannot be reached, and stays signed in', async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
    // The connection fails as a network's does: no answer at all.
    await page.route(
      (url) => url.pathname === '/v1/profiles',
      (route) => (route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue()),
    );
    await page.getByLabel('Name', { exact: true }).fill('Never sent');
    await page.getByRole('button', { name: 'Create profile' }).click();
    const alert = page.getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toBe('The service could not be reached. Check the connection and try again.');
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    const listed = await kit.api<{ data: Profile[] }>('GET', '/v1/profiles');
    expect(listed.body.data.map((p) => p.name)).not.toContain('Never sent');
    expectCleanRun(opened);
    await opened.close();
  });
});

describe('a cross-site request', () => {
  it('with the session cookie in the browser changes nothing', async () => {
    // Another site (localhost is another site than 127.0.0.1) whose page posts a form to the API.
    const attacker = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html><body>
<form id="f" method="post" action="${kit.baseUrl}/v1/profiles" enctype="text/plain">
<input name='{"name":"Forged","x":"' value='"}'></form>
<script>document.getElementById('f').submit()</script></body></html>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}/`;
    try {
      const opened = await kit.open();
      const { page } = opened;
      await signIn(kit, page, kit.ownerKey);
      const posted = page.waitForResponse((r) => r.url() === `${kit.baseUrl}/v1/profiles`);
      await page.goto(attackerUrl);
      const answer = await posted;
      // Refused whether the browser withheld the SameSite=Strict cookie (401) or sent it
      // without the CSRF token, which another site cannot read (403).
      const refusal = { status: answer.status(), code: (await answer.json()).error.code };
      expect([
        { status: 401, code: 'unauthorized' },
        { status: 403, code: 'csrf_token_invalid' },
      ]).toContainEqual(refusal);
      await screenshot(page, 'cross-site-refused');
      const listed = await kit.api<{ data: Profile[] }>('GET', '/v1/profiles');
      expect(listed.body.data.map((p) => p.name)).not.toContain('Forged');
      await opened.close();
    } finally {
      attacker.closeAllConnections();
      await new Promise<void>((resolve) => attacker.close(() => resolve()));
    }
  });
});
