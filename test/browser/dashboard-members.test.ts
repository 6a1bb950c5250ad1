/**
 * Members in Chromium: the owner invites a person from the Members screen; the invitation,
 * received by a real SMTP server, opens the hosted page in the person's own browser; its button
 * signs the person in to the dashboard, where it sees only the profile its role gives and is
 * refused, in the page and by the API, what the role does not allow; and the owner's removal
 * ends the person's open session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.ts';
import { type MailServer, startSmtpServer } from '../helpers/smtp-server.ts';
import {
  connectAccount,
  type DashboardKit,
  expectAccessible,
  expectCleanRun,
  screenshot,
  signIn,
  startDashboardKit,
} from './dashboard-kit.ts';

let kit: DashboardKit;
let smtp: MailServer;

/** The person's name as the owner writes it: markup that must stay text. */
const NAME = '<img src=x onerror="document.title=1">Riley';
const EMAIL = 'riley@people.example.test';

beforeAll(async () => {
  smtp = await startSmtpServer();
  kit = await startDashboardKit({ SMTP_URL: smtp.url, MAIL_FROM: 'Switchboard <switchboard@example.test>' });
});

afterAll(async () => {
  await kit?.stop();
  await smtp?.close();
});

describe('members', () => {
  it('invites a person who signs in from the e-mail, sees its profile only, is refused the rest, and is signed out when removed', async () => {
    const client = await kit.api<{ id: string }>('POST', '/v1/profiles', { body: { name: 'Client of Riley' } });
    await kit.api('POST', '/v1/profiles', { body: { name: 'Someone else' } });

    // The owner invites Riley as an editor of one profile.
    const owner = await kit.open();
    await signIn(kit, owner.page, kit.ownerKey);
    await owner.page.getByRole('link', { name: 'Members' }).click();
    await owner.page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await owner.page.getByText('No members yet.').waitFor();
    await owner.page.getByLabel('E-mail address').fill(EMAIL);
    await owner.page.getByLabel('Name (optional)').fill(NAME);
    await owner.page.getByLabel('Role').selectOption('editor');
    await owner.page.getByLabel('Where').selectOption({ label: 'Client of Riley' });
    await owner.page.getByRole('button', { name: 'Invite' }).click();
    await owner.page.getByText(`Invited ${EMAIL}.`).waitFor();
    const row = owner.page.locator('tbody tr', { hasText: EMAIL });
    await expect.poll(() => row.textContent()).toContain('editor on Client of Riley');
    expect(await row.textContent()).toContain(NAME);
    expect(await owner.page.locator('tbody img').count()).toBe(0);
    await expectAccessible(owner.page);
    await screenshot(owner.page, 'members');

    // The e-mail, as the SMTP server received it.
    const mail = await eventually(async () => smtp.received.find((m) => m.to.includes(EMAIL)));
    expect(mail.subject).toBe("You are invited to Agency owner's dashboard");
    const link = new RegExp(`${kit.baseUrl}/members/accept/[A-Za-z0-9_-]{43}`).exec(mail.text)?.[0];
    expect(link).toBeDefined();

    // Riley, in a browser of its own: the page shows a button, which signs in.
    const riley = await kit.open();
    await riley.page.goto(link ?? '');
    await riley.page.getByRole('heading', { name: "Join Agency owner's dashboard" }).waitFor();
    expect(await riley.page.getByText(EMAIL).count()).toBe(1);
    await riley.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await riley.page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await riley.page.locator('header .who').textContent()).toContain(`Member · ${EMAIL}`);

    // Its one profile, and the screens an editor has; not the owner's.
    await riley.page.getByRole('heading', { name: 'Client of Riley' }).waitFor();
    expect(riley.page.url()).toBe(`${kit.baseUrl}/dashboard/profiles/${client.body.id}`);
    const nav = riley.page.getByRole('navigation', { name: 'Screens' });
    for (const shown of ['Posts', 'Comments', 'Insights', 'Webhooks']) {
      expect(await nav.getByRole('link', { name: shown }).count(), shown).toBe(1);
    }
    for (const hidden of ['Members', 'Audit log', 'Connect settings']) {
      expect(await nav.getByRole('link', { name: hidden }).count(), hidden).toBe(0);
    }
    // Refused in the page...
    await riley.page.goto(`${kit.baseUrl}/dashboard/members`);
    const alert = riley.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('role_required');
    expect(await riley.page.locator('tbody tr').count()).toBe(0);
    // ...and by the API, with the session's own cookie and CSRF token.
    const refused = await riley.page.evaluate(async () => {
      const session = (await (await fetch('/v1/session')).json()) as { csrf_token: string };
      const answer = await fetch('/v1/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: JSON.stringify({ url: 'https://hooks.example.test/riley', events: ['post.published'] }),
      });
      return { status: answer.status, body: await answer.json() };
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('role_required');
    const seen = await riley.page.evaluate(async () => (await (await fetch('/v1/profiles')).json()) as unknown);
    expect((seen as { data: { name: string }[] }).data.map((p) => p.name)).toEqual(['Client of Riley']);
    await expectAccessible(riley.page);

    // The owner removes Riley: Riley's open page is signed out at its next request.
    await owner.page.reload();
    await owner.page.getByRole('button', { name: 'Remove' }).click();
    await owner.page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await owner.page.getByText('No members yet.').waitFor();
    await riley.page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Posts' }).click();
    await riley.page.getByText('Your session has ended').waitFor();
    await riley.page.getByLabel('API key').waitFor();

    expectCleanRun(owner);
    expectCleanRun(riley);
    await owner.close();
    await riley.close();
  });

  it('signs a member in again with a link asked for on the sign-in page', async () => {
    const invited = await kit.api<{ id: string }>('POST', '/v1/members', {
      body: { email: 'sam@people.example.test', roles: [{ role: 'viewer', profile_id: null }] },
    });
    expect(invited.status).toBe(201);
    const invitation = await eventually(async () =>
      smtp.received.find((m) => m.to.includes('sam@people.example.test')),
    );
    const accept = new RegExp(`${kit.baseUrl}/members/accept/[A-Za-z0-9_-]{43}`).exec(invitation.text)?.[0] ?? '';
    const first = await kit.open();
    await first.page.goto(accept);
    await first.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await first.page.getByRole('button', { name: 'Sign out' }).waitFor();
    await first.close();

    const later = await kit.open();
    await later.page.goto(`${kit.baseUrl}/dashboard`);
    await later.page.getByRole('link', { name: 'Sign in with your e-mail address' }).click();
    await later.page.getByLabel('E-mail address').fill('sam@people.example.test');
    await later.page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await later.page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    const mail = await eventually(async () =>
      smtp.received.find((m) => m.to.includes('sam@people.example.test') && m.subject.startsWith('Sign in')),
    );
    const link = new RegExp(`${kit.baseUrl}/members/sign-in/[A-Za-z0-9_-]{43}`).exec(mail.text)?.[0] ?? '';
    await later.page.goto(link);
    await later.page.getByRole('button', { name: 'Sign in' }).click();
    await later.page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await later.page.locator('header .who').textContent()).toContain('Member · sam@people.example.test');
    // A viewer for the whole owner: every profile, no members screen.
    await later.page.getByRole('link', { name: 'Profiles' }).click();
    await later.page.getByRole('link', { name: 'Client of Riley', exact: true }).waitFor();
    expect(await later.page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await later.page.getByRole('link', { name: 'Members' }).count()).toBe(0);
    expectCleanRun(later);
    await later.close();
  });

  it("lets a client member approve its profile's post on the post's screen, or ask for changes", async () => {
    const profile = await kit.api<{ id: string }>('POST', '/v1/profiles', { body: { name: 'Approving client' } });
    const accountId = await connectAccount(kit, profile.body.id, 'threads', 'approving.client');
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const made = async (text: string) =>
      (
        await kit.api<{ id: string }>('POST', '/v1/posts', {
          body: { account_ids: [accountId], text, scheduled_at: later, approval: { required: true } },
        })
      ).body.id;
    const first = await made('The first post to approve');
    const second = await made('The second post, to change');
    await kit.api('POST', '/v1/members', {
      body: { email: 'casey@people.example.test', roles: [{ role: 'client', profile_id: profile.body.id }] },
    });
    const invitation = await eventually(async () =>
      smtp.received.find((m) => m.to.includes('casey@people.example.test')),
    );
    const accept = new RegExp(`${kit.baseUrl}/members/accept/[A-Za-z0-9_-]{43}`).exec(invitation.text)?.[0] ?? '';
    const casey = await kit.open();
    const { page } = casey;
    await page.goto(accept);
    await page.getByRole('button', { name: 'Accept and sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // A client has its posts and insights; not comments or webhooks.
    const nav = page.getByRole('navigation', { name: 'Screens' });
    expect(await nav.getByRole('link', { name: 'Comments' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);

    await page.goto(`${kit.baseUrl}/dashboard/posts/${first}`);
    await page.getByRole('heading', { name: 'Your approval' }).waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('approved by the client', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    const approved = await kit.api<{ status: string; approval: { decided_by: string } }>('GET', `/v1/posts/${first}`);
    expect(approved.body.status).toBe('scheduled');
    expect(approved.body.approval.decided_by).toMatch(/^mem_/);

    await page.goto(`${kit.baseUrl}/dashboard/posts/${second}`);
    await page.getByRole('button', { name: 'Request changes' }).click();
    // The API's word on the field, beside it.
    await page.getByText('says what to change: it is needed to request changes').waitFor();
    await page.getByLabel('Your comment').fill('<b>Warmer</b>, please');
    await page.getByRole('button', { name: 'Request changes' }).click();
    await page.getByText('<b>Warmer</b>, please').waitFor();
    expect(await page.locator('main b').count()).toBe(0);
    const changed = await kit.api<{ approval: { status: string; comment: string } }>('GET', `/v1/posts/${second}`);
    expect(changed.body.approval).toMatchObject({ status: 'changes_requested', comment: '<b>Warmer</b>, please' });
    await expectAccessible(page);
    expectCleanRun(casey);
    await casey.close();
  });

  it('lets a member with a higher role on one profile than for the whole owner choose that profile to use it', async () => {
    const profile = await kit.api<{ id: string }>('POST', '/v1/profiles', { body: { name: 'Edited by Jo' } });
    await kit.api('POST', '/v1/members', {
      body: {
        email: 'jo@people.example.test',
        roles: [
          { role: 'viewer', profile_id: null },
          { role: 'editor', profile_id: profile.body.id },
        ],
      },
    });
    const invitation = await eventually(async () => smtp.received.find((m) => m.to.includes('jo@people.example.test')));
    const accept = new RegExp(`${kit.baseUrl}/members/accept/[A-Za-z0-9_-]{43}`).exec(invitation.text)?.[0] ?? '';
    const jo = await kit.open();
    const { page } = jo;
    await page.goto(accept);
    await page.getByRole('button', { name: 'Accept and sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const picker = page.getByLabel('Profile', { exact: true });
    expect(await picker.inputValue()).toBe('');
    // Every profile: a viewer, so the profile's menu offers no connect link.
    await page.goto(`${kit.baseUrl}/dashboard/profiles/${profile.body.id}`);
    await page.getByRole('heading', { name: 'Edited by Jo' }).waitFor();
    await jo.settled();
    expect(await page.getByRole('button', { name: 'Create connect link' }).count()).toBe(0);
    // That profile chosen: its editor.
    await picker.selectOption({ label: 'Edited by Jo' });
    await page.getByRole('button', { name: 'Create connect link' }).waitFor();
    await expectAccessible(page);
    expectCleanRun(jo);
    await jo.close();
  });
});
