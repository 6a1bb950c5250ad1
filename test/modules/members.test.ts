/**
 * Members over HTTP: invited by the API with their roles, the invitation received by a real
 * SMTP server, accepted on the hosted page (a button: opening the link spends nothing), signed
 * in again by a link asked for by address, held to their roles in every answer, and signed out
 * at once when removed.
 */
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { deleteEndedMemberSessions, deleteExpiredLinks, sendSignInLinks } from '../../src/modules/members/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { imageFile, multipartUpload } from '../helpers/media-files.ts';
import { type MailServer, type ReceivedMail, startSmtpServer } from '../helpers/smtp-server.ts';
import { auditEntries, events, memberRoles, memberSessions, members, memberTokens } from '../helpers/tables.ts';

let t: TestApp;
let smtp: MailServer;
let owner: TestOwner;
let clientProfile: string;
let otherProfile: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({
    PUBLIC_URL: 'https://switchboard.example.test',
    RATE_LIMIT_PER_MINUTE: '100000',
    MEMBER_PASSWORDS: 'true',
    TRUST_PROXY: '127.0.0.9',
  });
  await t.startWorker({
    sendMail: smtp.mailer(t.config.dataDir),
  });
  owner = await t.createOwner('Agency');
  clientProfile = await newProfile('Client One');
  otherProfile = await newProfile('Client Two');
});

afterEach(() => resetClock());

afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function newProfile(name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(owner.key), payload: { name } });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

let invited = 0;

/** A fresh address of this test run. */
function address(label: string): string {
  invited += 1;
  return `${label}.${invited}@people.example.test`;
}

async function invite(email: string, roles: { role: string; profile_id: string | null }[], name?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/members',
    headers: auth(owner.key),
    payload: { email, roles, ...(name ? { name } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** The e-mail sent to `to` whose subject starts `subject`, once it has arrived. */
async function mailTo(to: string, subject: string, count = 1): Promise<ReceivedMail> {
  return await eventually(async () => {
    const mails = smtp.received.filter((m) => m.to.includes(to) && m.subject.startsWith(subject));
    return mails.length >= count ? mails[count - 1] : undefined;
  });
}

function linkIn(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https://switchboard\\.example\\.test(${path}/[A-Za-z0-9_-]{43})\\b`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[1];
}

interface PageVisit {
  res: LightMyRequestResponse;
  cookie: string;
  csrf: string | undefined;
}

async function openPage(url: string, cookie = '', remoteAddress?: string): Promise<PageVisit> {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: cookie ? { cookie } : {},
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  const set = res.headers['set-cookie'];
  const fresh = (Array.isArray(set) ? set[0] : set)?.split(';')[0];
  return { res, cookie: fresh ?? cookie, csrf: /name="csrf" value="([^"]*)"/.exec(res.body)?.[1] };
}

async function submit(
  url: string,
  page: { cookie: string; csrf?: string | undefined },
  fields = {},
  remoteAddress?: string,
) {
  return await t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrf: page.csrf ?? '', ...fields }).toString(),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

interface MemberSession {
  cookie: string;
  csrf: string;
}

/** Opens the link's page and presses its button: answers the session the answer's cookie holds. */
async function useLink(path: string): Promise<MemberSession> {
  const page = await openPage(path);
  expect(page.res.statusCode).toBe(200);
  const res = await submit(path, page);
  expect(res.statusCode, res.body).toBe(303);
  expect(res.headers.location).toBe('/dashboard');
  const set = String(res.headers['set-cookie']);
  const token = /sb_session=(mbr_[A-Za-z0-9_-]{43})/.exec(set)?.[1];
  expect(token).toBeDefined();
  const cookie = `sb_session=${token}`;
  const session = await t.app.inject({ method: 'GET', url: '/v1/session', headers: { cookie } });
  expect(session.statusCode).toBe(200);
  return { cookie, csrf: session.json().csrf_token };
}

/** Invites `email` with `roles` and accepts the invitation from its e-mail. */
async function member(label: string, roles: { role: string; profile_id: string | null }[]) {
  const email = address(label);
  const created = await invite(email, roles);
  const session = await useLink(linkIn(await mailTo(email, 'You are invited'), '/members/accept'));
  return { id: created.id as string, email, session };
}

function as(session: MemberSession, extra: Record<string, string> = {}) {
  return { cookie: session.cookie, 'x-csrf-token': session.csrf, ...extra };
}

async function call(session: MemberSession, method: string, url: string, payload?: object, extra = {}) {
  return await t.app.inject({
    method: method as 'GET',
    url,
    headers: as(session, extra),
    ...(payload ? { payload } : {}),
  });
}

/** Uploads a small JPEG as the member. */
async function upload(session: MemberSession) {
  const file = multipartUpload(await imageFile('jpeg'));
  return await t.app.inject({
    method: 'POST',
    url: '/v1/media',
    headers: { ...as(session), ...file.headers },
    payload: file.payload,
  });
}

describe('inviting a member', () => {
  it('answers 201 with the member, invited, and e-mails a link whose page only shows a button', async () => {
    const email = address('Ana.Editor');
    const created = await invite(email, [{ role: 'editor', profile_id: clientProfile }], 'Ana <Editor>');
    expect(created).toMatchObject({
      email,
      name: 'Ana <Editor>',
      status: 'invited',
      roles: [{ role: 'editor', profile_id: clientProfile }],
      last_sign_in_at: null,
    });
    expect(created.id).toMatch(/^mem_/);
    expect(Date.parse(created.invitation_expires_at) - Date.parse(created.created_at)).toBe(7 * 24 * 3600_000);

    const mail = await mailTo(email, 'You are invited');
    expect(mail.subject).toBe("You are invited to Agency's dashboard");
    expect(mail.text).toContain('Hello Ana <Editor>,');
    const path = linkIn(mail, '/members/accept');
    // The token is stored hashed only.
    const stored = await t.database.db.select().from(memberTokens).where(eq(memberTokens.memberId, created.id));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(path.split('/').at(-1));

    // Opening the page twice (a mail scanner, then the person) spends nothing.
    let page = await openPage(path);
    for (let i = 0; i < 2; i += 1) {
      page = await openPage(path, page.cookie);
      expect(page.res.statusCode).toBe(200);
      expect(page.res.body).toContain(email);
      expect(page.res.body).toContain('Accept and sign in');
      expect(page.res.headers['content-security-policy']).toContain("default-src 'none'");
    }
    const session = await useLink(path);
    const me = await t.app.inject({ method: 'GET', url: '/v1/session', headers: { cookie: session.cookie } });
    expect(me.json()).toMatchObject({
      key_id: null,
      key_kind: null,
      profile_id: clientProfile,
      member: { id: created.id, email, name: 'Ana <Editor>', roles: [{ role: 'editor', profile_id: clientProfile }] },
    });
    const shown = await t.app.inject({ method: 'GET', url: `/v1/members/${created.id}`, headers: auth(owner.key) });
    expect(shown.json()).toMatchObject({ status: 'active', invitation_expires_at: null });
    expect(shown.json().last_sign_in_at).not.toBeNull();

    // Used once: the page and its button both say so now.
    expect((await openPage(path)).res.statusCode).toBe(404);
    const again = await submit(path, page);
    expect(again.statusCode).toBe(404);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a press of the button that did not come from its page in this browser', async () => {
    const email = address('forged');
    await invite(email, [{ role: 'viewer', profile_id: null }]);
    const path = linkIn(await mailTo(email, 'You are invited'), '/members/accept');
    const page = await openPage(path);
    // Over https, the form's cookie is host-only: no sibling subdomain can set it.
    const set = String(page.res.headers['set-cookie']);
    expect(set).toMatch(/^__Host-sb_member_form=[A-Za-z0-9_-]{43}; /);
    expect(set.split('; ')).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    for (const forged of [
      { cookie: '', csrf: page.csrf },
      { cookie: page.cookie, csrf: 'forged' },
      { cookie: '__Host-sb_member_form=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', csrf: page.csrf },
      // Not the host-only cookie the page set: a value a sibling subdomain could have planted.
      { cookie: page.cookie.replace('__Host-', ''), csrf: page.csrf },
    ]) {
      const res = await submit(path, forged);
      expect(res.statusCode).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // The link still works from its page.
    await useLink(path);
  });

  it('refuses bad input with a precise error and stores nothing', async () => {
    const count = async () =>
      (await t.database.db.select().from(members).where(eq(members.ownerId, owner.ownerId))).length;
    const before = await count();
    const cases: [object, number, string][] = [
      [{ email: 'not an address', roles: [{ role: 'viewer', profile_id: null }] }, 400, 'validation_failed'],
      [{ email: address('x'), roles: [] }, 400, 'validation_failed'],
      [{ email: address('x'), roles: [{ role: 'owner', profile_id: null }] }, 400, 'validation_failed'],
      [{ email: address('x'), roles: [{ role: 'viewer', profile_id: 'prf_nope' }] }, 404, 'profile_not_found'],
      [
        {
          email: address('x'),
          roles: [
            { role: 'viewer', profile_id: clientProfile },
            { role: 'editor', profile_id: clientProfile },
          ],
        },
        400,
        'validation_failed',
      ],
    ];
    for (const [payload, status, code] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/members', headers: auth(owner.key), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error.code).toBe(code);
    }
    const email = address('Twice');
    await invite(email, [{ role: 'viewer', profile_id: null }]);
    const twice = await t.app.inject({
      method: 'POST',
      url: '/v1/members',
      headers: auth(owner.key),
      payload: { email: email.toUpperCase(), roles: [{ role: 'viewer', profile_id: null }] },
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('member_exists');
    expect(await count()).toBe(before + 1);
  });

  it('sends a new invitation on request; the one before stops working', async () => {
    const email = address('again');
    const created = await invite(email, [{ role: 'viewer', profile_id: null }]);
    const first = linkIn(await mailTo(email, 'You are invited'), '/members/accept');
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/members/${created.id}/invitation`,
      headers: auth(owner.key),
    });
    expect(res.statusCode).toBe(200);
    const second = linkIn(await mailTo(email, 'You are invited', 2), '/members/accept');
    expect(second).not.toBe(first);
    expect((await openPage(first)).res.statusCode).toBe(404);
    await useLink(second);
    const active = await t.app.inject({
      method: 'POST',
      url: `/v1/members/${created.id}/invitation`,
      headers: auth(owner.key),
    });
    expect(active.statusCode).toBe(409);
    expect(active.json().error.code).toBe('member_already_active');
  });

  it('deletes links past their time and sessions past their limits in the hourly clean-up', async () => {
    const email = address('cleaned');
    const created = await invite(email, [{ role: 'viewer', profile_id: null }]);
    const m = await member('session.cleaned', [{ role: 'viewer', profile_id: null }]);
    const stored = async () => ({
      links: (await t.database.db.select().from(memberTokens).where(eq(memberTokens.memberId, created.id))).length,
      sessions: (await t.database.db.select().from(memberSessions).where(eq(memberSessions.memberId, m.id))).length,
    });
    await deleteExpiredLinks(t.database.db);
    await deleteEndedMemberSessions(t.database.db);
    expect(await stored()).toEqual({ links: 1, sessions: 1 });
    // An hour without a request ends a session; 7 days end an invitation.
    advanceClock(7 * 24 * 3600_000 + 1000);
    expect(await deleteExpiredLinks(t.database.db)).toBeGreaterThanOrEqual(1);
    expect(await deleteEndedMemberSessions(t.database.db)).toBeGreaterThanOrEqual(1);
    expect(await stored()).toEqual({ links: 0, sessions: 0 });
  });

  it('lets an invitation expire after 7 days', async () => {
    const email = address('late');
    await invite(email, [{ role: 'viewer', profile_id: null }]);
    const path = linkIn(await mailTo(email, 'You are invited'), '/members/accept');
    const page = await openPage(path);
    advanceClock(7 * 24 * 3600_000 + 1000);
    expect((await submit(path, page)).statusCode).toBe(404);
  });
});

describe('signing in by e-mail', () => {
  it('sends a link to a member and the same page, and no e-mail, for an address that is none', async () => {
    const m = await member('comes.back', [{ role: 'viewer', profile_id: null }]);
    const stranger = address('stranger');
    const answers: string[] = [];
    for (const email of [m.email.toUpperCase(), stranger]) {
      const page = await openPage('/members/sign-in', '', '10.1.0.1');
      const res = await submit('/members/sign-in', page, { email }, '10.1.0.1');
      expect(res.statusCode).toBe(200);
      answers.push(res.body.replace(email.replace(/&/g, '&amp;'), 'ADDRESS'));
    }
    expect(answers[0]).toBe(answers[1]);
    const mail = await mailTo(m.email, 'Sign in to');
    expect(mail.subject).toBe("Sign in to Agency's dashboard");
    const session = await useLink(linkIn(mail, '/members/sign-in'));
    expect((await call(session, 'GET', '/v1/profiles')).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.filter((r) => r.to.includes(stranger))).toEqual([]);
  });

  it('sends nothing for a request for links that waited over 10 minutes (its job retried that long)', async () => {
    const m = await member('late.request', [{ role: 'viewer', profile_id: null }]);
    const tokens = async () =>
      (await t.database.db.select().from(memberTokens).where(eq(memberTokens.memberId, m.id))).length;
    const before = await tokens();
    const asked = new Date(Date.now() - 11 * 60_000).toISOString();
    await sendSignInLinks({ db: t.database.db, secretKey: t.secretKey }, { email: m.email, asked_at: asked });
    expect(await tokens()).toBe(before);
    await sendSignInLinks(
      { db: t.database.db, secretKey: t.secretKey },
      { email: m.email, asked_at: new Date().toISOString() },
    );
    expect(await tokens()).toBe(before + 1);
  });

  it('expires a sign-in link after 15 minutes', async () => {
    const m = await member('slow', [{ role: 'viewer', profile_id: null }]);
    const page = await openPage('/members/sign-in', '', '10.1.0.2');
    await submit('/members/sign-in', page, { email: m.email }, '10.1.0.2');
    const path = linkIn(await mailTo(m.email, 'Sign in to'), '/members/sign-in');
    const button = await openPage(path);
    advanceClock(15 * 60_000 + 1000);
    expect((await submit(path, button)).statusCode).toBe(404);
  });

  it('sends an address 5 links every 15 minutes, then nothing more, answering the same', async () => {
    const m = await member('limited', [{ role: 'viewer', profile_id: null }]);
    const answers: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const ip = `10.2.0.${i + 1}`;
      const page = await openPage('/members/sign-in', '', ip);
      const res = await submit('/members/sign-in', page, { email: m.email }, ip);
      expect(res.statusCode).toBe(200);
      answers.push(res.body);
    }
    expect(new Set(answers).size).toBe(1);
    const sent = () => smtp.received.filter((r) => r.to.includes(m.email) && r.subject.startsWith('Sign in')).length;
    await eventually(async () => (sent() === 5 ? true : undefined));
    // A link asked for after those arrives; the address still has 5.
    const marker = await member('marker', [{ role: 'viewer', profile_id: null }]);
    const page = await openPage('/members/sign-in', '', '10.2.1.1');
    await submit('/members/sign-in', page, { email: marker.email }, '10.2.1.1');
    await mailTo(marker.email, 'Sign in to');
    expect(sent()).toBe(5);
  });

  it('refuses an asker past 20 requests in 15 minutes: an IPv4 address, an IPv6 /64, or the client a trusted proxy names', async () => {
    const askers: { label: string; ips: (i: number) => { remote: string; forwarded?: string } }[] = [
      { label: 'IPv4', ips: () => ({ remote: '10.3.0.1' }) },
      { label: 'IPv6 /64', ips: (i) => ({ remote: `2001:db8:1:2::${(i + 1).toString(16)}` }) },
      // A proxy that forwards the client's port: the port is no part of the asker.
      { label: 'behind the proxy', ips: (i) => ({ remote: '127.0.0.9', forwarded: `198.51.100.7:${40000 + i}` }) },
    ];
    for (const asker of askers) {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i += 1) {
        const { remote, forwarded } = asker.ips(i);
        const headers = forwarded ? { 'x-forwarded-for': forwarded } : {};
        const page = await t.app.inject({ method: 'GET', url: '/members/sign-in', remoteAddress: remote, headers });
        const cookie = String(page.headers['set-cookie']).split(';')[0] ?? '';
        const csrf = /name="csrf" value="([^"]*)"/.exec(page.body)?.[1] ?? '';
        const res = await t.app.inject({
          method: 'POST',
          url: '/members/sign-in',
          remoteAddress: remote,
          headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ csrf, email: address('many') }).toString(),
        });
        statuses.push(res.statusCode);
      }
      expect(
        statuses.slice(0, 20).every((s) => s === 200),
        asker.label,
      ).toBe(true);
      expect(statuses[20], asker.label).toBe(429);
    }
    // The proxy's other clients, and the next /64, are counted apart.
    const other = await t.app.inject({
      method: 'GET',
      url: '/members/sign-in',
      remoteAddress: '127.0.0.9',
      headers: { 'x-forwarded-for': '198.51.100.8' },
    });
    const cookie = String(other.headers['set-cookie']).split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]*)"/.exec(other.body)?.[1] ?? '';
    const next = await t.app.inject({
      method: 'POST',
      url: '/members/sign-in',
      remoteAddress: '127.0.0.9',
      headers: { 'x-forwarded-for': '198.51.100.8', cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf, email: address('another') }).toString(),
    });
    expect(next.statusCode).toBe(200);
  });

  it('asks again for an address that is not one', async () => {
    const page = await openPage('/members/sign-in', '', '10.4.0.1');
    const res = await submit('/members/sign-in', page, { email: 'nobody' }, '10.4.0.1');
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Write an e-mail address');
  });
});

describe('roles', () => {
  it('gives an editor on one profile that profile alone, and what an editor may do there', async () => {
    const { session } = await member('editor', [{ role: 'editor', profile_id: clientProfile }]);
    const listed = await call(session, 'GET', '/v1/profiles');
    expect(listed.json().data.map((p: { id: string }) => p.id)).toEqual([clientProfile]);
    for (const hidden of [owner.defaultProfileId, otherProfile]) {
      const res = await call(session, 'GET', `/v1/profiles/${hidden}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('profile_not_found');
      const scoped = await call(session, 'GET', '/v1/posts', undefined, { 'service-profile': hidden });
      expect(scoped.statusCode).toBe(404);
      expect(scoped.json().error.code).toBe('profile_not_found');
    }
    const uploaded = await upload(session);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json().profile_id).toBe(clientProfile);
    expect((await call(session, 'GET', '/v1/comments')).statusCode).toBe(200);
    const hook = await call(session, 'POST', '/v1/webhooks', {
      url: 'https://hooks.example.test/x',
      events: ['post.published'],
    });
    expect(hook.statusCode).toBe(403);
    expect(hook.json().error).toMatchObject({
      code: 'role_required',
      message: `This needs the admin role for profile ${clientProfile}; your role does not reach it.`,
    });
    const people = await call(session, 'GET', '/v1/members');
    expect(people.statusCode).toBe(403);
    expect(people.json().error.code).toBe('role_required');
  });

  it('lets a viewer read and change nothing, and a client read posts and insights but not comments', async () => {
    const viewer = await member('viewer', [{ role: 'viewer', profile_id: null }]);
    expect((await call(viewer.session, 'GET', '/v1/comments')).statusCode).toBe(200);
    expect((await call(viewer.session, 'GET', '/v1/webhooks')).statusCode).toBe(200);
    const made = await call(viewer.session, 'POST', '/v1/profiles', { name: 'By a viewer' });
    expect(made.statusCode).toBe(403);
    expect(made.json().error.code).toBe('role_required');
    const client = await member('client', [{ role: 'client', profile_id: clientProfile }]);
    expect((await call(client.session, 'GET', '/v1/posts')).statusCode).toBe(200);
    expect((await call(client.session, 'GET', '/v1/accounts')).statusCode).toBe(200);
    expect((await call(client.session, 'GET', '/v1/comments')).statusCode).toBe(403);
    expect((await call(client.session, 'GET', '/v1/media')).statusCode).toBe(403);
  });

  it('asks a member with roles on several profiles which one a request is about', async () => {
    const { session } = await member('two', [
      { role: 'viewer', profile_id: clientProfile },
      { role: 'editor', profile_id: otherProfile },
    ]);
    const listed = await call(session, 'GET', '/v1/profiles');
    expect(
      listed
        .json()
        .data.map((p: { id: string }) => p.id)
        .sort(),
    ).toEqual([clientProfile, otherProfile].sort());
    const unnamed = await call(session, 'GET', '/v1/posts');
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().error.code).toBe('profile_required');
    expect((await call(session, 'GET', '/v1/posts', undefined, { 'service-profile': clientProfile })).statusCode).toBe(
      200,
    );
    // A profile's own path names it.
    expect((await call(session, 'GET', `/v1/profiles/${otherProfile}`)).statusCode).toBe(200);
    const renamed = await call(session, 'PATCH', `/v1/profiles/${clientProfile}`, { name: 'Not by a viewer' });
    expect(renamed.statusCode).toBe(403);
  });

  it('lets an admin for the whole owner manage members, and records its changes under its name', async () => {
    const admin = await member('admin', [{ role: 'admin', profile_id: null }]);
    const email = address('by.admin');
    const res = await call(admin.session, 'POST', '/v1/members', {
      email,
      roles: [{ role: 'viewer', profile_id: otherProfile }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const [entry] = await t.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.requestId, String(res.headers['request-id'])));
    expect(entry).toMatchObject({
      actorType: 'member',
      actorId: admin.id,
      actorName: admin.email,
      via: 'dashboard',
      operation: 'POST /v1/members',
      objectId: res.json().id,
    });
    // The owner's settings need the role for the whole owner and no profile header.
    const scoped = await call(admin.session, 'GET', '/v1/members', undefined, { 'service-profile': clientProfile });
    expect(scoped.statusCode).toBe(403);
    expect(scoped.json().error.code).toBe('owner_key_required');
  });

  it('applies a changed role at the next request, and a profile being deleted takes its roles with it', async () => {
    const m = await member('changing', [{ role: 'viewer', profile_id: clientProfile }]);
    const refused = await upload(m.session);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('role_required');
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/members/${m.id}`,
      headers: auth(owner.key),
      payload: { roles: [{ role: 'editor', profile_id: clientProfile }] },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().roles).toEqual([{ role: 'editor', profile_id: clientProfile }]);
    expect((await upload(m.session)).statusCode).toBe(201);

    const doomed = await newProfile('Doomed');
    const d = await member('doomed', [{ role: 'editor', profile_id: doomed }]);
    expect((await call(d.session, 'GET', '/v1/posts')).statusCode).toBe(200);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${doomed}`, headers: auth(owner.key) });
    expect(deleted.statusCode).toBe(202);
    expect(await t.database.db.select().from(memberRoles).where(eq(memberRoles.memberId, d.id))).toEqual([]);
    const listed = await call(d.session, 'GET', '/v1/profiles');
    expect(listed.json().data).toEqual([]);
  });
});

describe('a member with a role on one profile', () => {
  it("neither sees nor changes another profile's objects, and moves no account out of its profile", async () => {
    const admin = await member('profile.admin', [{ role: 'admin', profile_id: clientProfile }]);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: auth(owner.key),
      payload: { url: 'https://hooks.example.test/other', events: ['post.published'], profile_id: otherProfile },
    });
    const file = multipartUpload(await imageFile('jpeg'));
    const medium = await t.app.inject({
      method: 'POST',
      url: '/v1/media',
      headers: { ...auth(owner.key, otherProfile), ...file.headers },
      payload: file.payload,
    });
    const refusals: [string, string, object | undefined, string][] = [
      ['GET', `/v1/webhooks/${hook.json().id}`, undefined, 'webhook_not_found'],
      ['DELETE', `/v1/webhooks/${hook.json().id}`, undefined, 'webhook_not_found'],
      ['GET', `/v1/media/${medium.json().id}`, undefined, 'media_not_found'],
      ['DELETE', `/v1/media/${medium.json().id}`, undefined, 'media_not_found'],
      ['PATCH', `/v1/profiles/${otherProfile}`, { name: 'Taken over' }, 'profile_not_found'],
      ['POST', `/v1/profiles/${otherProfile}/api-keys`, {}, 'profile_not_found'],
    ];
    for (const [method, url, payload, code] of refusals) {
      const res = await call(admin.session, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe(code);
    }
    const { account } = await t.database.db.transaction((tx) =>
      saveConnectedAccount(tx, t.secretKey, {
        ownerId: owner.ownerId,
        profileId: clientProfile,
        platform: 'threads',
        tokens: { accessToken: 'token', expiresAt: null, platformUserId: 'mover-1', scopes: ['threads_basic'] },
        profile: { id: 'mover-1', username: 'mover', name: null, avatarUrl: null, followersCount: null },
      }),
    );
    const moved = await call(admin.session, 'POST', `/v1/accounts/${account.id}/move`, { profile_id: otherProfile });
    expect(moved.statusCode).toBe(403);
    expect(moved.json().error).toMatchObject({
      code: 'role_required',
      message: 'This needs the admin role for the whole owner; your role does not reach it.',
    });
    const still = await t.app.inject({ method: 'GET', url: `/v1/accounts/${account.id}`, headers: auth(owner.key) });
    expect(still.json().profile_id).toBe(clientProfile);
    // Its own objects it manages; a HEAD is its GET.
    const own = await call(admin.session, 'GET', `/v1/profiles/${clientProfile}/api-keys`);
    expect(own.statusCode).toBe(200);
    const head = await call(admin.session, 'HEAD', `/v1/profiles/${clientProfile}`);
    expect(head.statusCode).toBe(200);
  });

  it('does not replay an answer of the profile it acted in before its roles changed', async () => {
    const m = await member('moving.editor', [{ role: 'editor', profile_id: clientProfile }]);
    const uploadWithKey = async () => {
      const file = multipartUpload(await imageFile('jpeg'));
      return await t.app.inject({
        method: 'POST',
        url: '/v1/media',
        headers: { ...as(m.session), ...file.headers, 'idempotency-key': 'same-upload' },
        payload: file.payload,
      });
    };
    const first = await uploadWithKey();
    expect(first.json().profile_id).toBe(clientProfile);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/members/${m.id}`,
      headers: auth(owner.key),
      payload: { roles: [{ role: 'editor', profile_id: otherProfile }] },
    });
    const again = await uploadWithKey();
    expect(again.statusCode).toBe(422);
    expect(again.json().error.code).toBe('idempotency_key_reused');
  });
});

describe("a client's approval", () => {
  /** A Threads account of the client's profile, stored as the connect flow stores one. */
  async function account(): Promise<string> {
    const { account } = await t.database.db.transaction((tx) =>
      saveConnectedAccount(tx, t.secretKey, {
        ownerId: owner.ownerId,
        profileId: clientProfile,
        platform: 'threads',
        tokens: {
          accessToken: 'token',
          expiresAt: null,
          platformUserId: 'approver-1',
          scopes: ['threads_basic', 'threads_content_publish'],
        },
        profile: { id: 'approver-1', username: 'approver', name: null, avatarUrl: null, followersCount: null },
      }),
    );
    return account.id;
  }

  it("lets a client member approve its profile's post, recorded under its id, on the version it saw", async () => {
    const accountId = await account();
    const made = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: {
        account_ids: [accountId],
        text: 'For the client to approve',
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
        approval: { required: true },
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const post = made.json();
    expect(post.status).toBe('awaiting_approval');
    const client = await member('approver', [{ role: 'client', profile_id: clientProfile }]);
    const url = `/v1/posts/${post.id}/approval`;

    const vague = await call(client.session, 'POST', url, { decision: 'changes_requested' });
    expect(vague.statusCode).toBe(400);
    expect(vague.json().error.details).toEqual([
      { field: 'body.comment', message: 'says what to change: it is needed to request changes' },
    ]);
    const stale = await call(client.session, 'POST', url, {
      decision: 'approved',
      version: '2020-01-01T00:00:00.000Z',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('post_changed');

    const approved = await call(client.session, 'POST', url, { decision: 'approved', version: post.updated_at });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'scheduled',
      approval: { status: 'approved', approval_link_id: null, decided_by: client.id, comment: null },
    });
    const again = await call(client.session, 'POST', url, { decision: 'approved' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('post_not_awaiting_approval');
    const [event] = await t.database.db
      .select()
      .from(events)
      .where(and(eq(events.ownerId, owner.ownerId), eq(events.type, 'post.approved')));
    expect(event?.data).toMatchObject({ post_id: post.id, approval_link_id: null, decided_by: client.id });
    const [entry] = await t.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.requestId, String(approved.headers['request-id'])));
    expect(entry).toMatchObject({ actorType: 'member', actorId: client.id, operation: 'POST /v1/posts/{id}/approval' });

    // A client for the whole owner who is an editor on the post's profile: an editor there, who does not decide.
    const mixed = await member('client.everywhere', [
      { role: 'client', profile_id: null },
      { role: 'editor', profile_id: clientProfile },
    ]);
    const other = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: {
        account_ids: [accountId],
        text: 'Not for an editor to approve',
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
        approval: { required: true },
      },
    });
    const refused = await call(mixed.session, 'POST', `/v1/posts/${other.json().id}/approval`, {
      decision: 'approved',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'role_required',
      message: `This needs the client or admin role for profile ${clientProfile}; your role does not reach it.`,
    });
    const untouched = await t.app.inject({
      method: 'GET',
      url: `/v1/posts/${other.json().id}`,
      headers: auth(owner.key),
    });
    expect(untouched.json().approval.status).toBe('pending');

    // A client of another profile does not see the post.
    const stranger = await member('other.client', [{ role: 'client', profile_id: otherProfile }]);
    const hidden = await call(stranger.session, 'POST', url, { decision: 'approved' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.code).toBe('post_not_found');
  });
});

describe('removing a member', () => {
  it('ends its open sessions at once and leaves the owner key untouched', async () => {
    const m = await member('leaving', [{ role: 'editor', profile_id: null }]);
    expect((await call(m.session, 'GET', '/v1/posts')).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/members/${m.id}`, headers: auth(owner.key) });
    expect(res.statusCode).toBe(204);
    const after = await call(m.session, 'GET', '/v1/posts');
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('session_ended');
    expect(await t.database.db.select().from(memberSessions).where(eq(memberSessions.memberId, m.id))).toEqual([]);
    const gone = await t.app.inject({ method: 'GET', url: `/v1/members/${m.id}`, headers: auth(owner.key) });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.code).toBe('member_not_found');
  });

  it("never shows or changes one owner's members to another owner", async () => {
    const other = await t.createOwner('Other agency');
    const m = await invite(address('mine'), [{ role: 'viewer', profile_id: null }]);
    for (const [method, url] of [
      ['GET', `/v1/members/${m.id}`],
      ['DELETE', `/v1/members/${m.id}`],
      ['POST', `/v1/members/${m.id}/invitation`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: auth(other.key) });
      expect(res.statusCode).toBe(404);
    }
    const list = await t.app.inject({ method: 'GET', url: '/v1/members', headers: auth(other.key) });
    expect(list.json().data).toEqual([]);
    const still = await t.database.db
      .select()
      .from(members)
      .where(and(eq(members.id, m.id), eq(members.ownerId, owner.ownerId)));
    expect(still).toHaveLength(1);
  });
});

describe('passwords, where the operator allows them', () => {
  async function passwordSignIn(email: string, password: string, ip: string) {
    const page = await openPage('/members/sign-in', '', ip);
    expect(page.res.body).toContain('Or sign in with your password');
    return await submit('/members/sign-in/password', page, { email, password }, ip);
  }

  it('sets a password as the invitation is accepted, stored as an argon2id hash, and signs in with it', async () => {
    const email = address('with.password');
    const created = await invite(email, [{ role: 'viewer', profile_id: null }]);
    const path = linkIn(await mailTo(email, 'You are invited'), '/members/accept');
    const page = await openPage(path);
    expect(page.res.body).toContain('name="password"');
    const short = await submit(path, page, { password: 'too short' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('A password has 12 to 256 characters.');
    // Refused, the link is still good.
    const accepted = await submit(path, page, { password: 'correct horse battery staple' });
    expect(accepted.statusCode).toBe(303);
    const [row] = await t.database.db.select().from(members).where(eq(members.id, created.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);

    const wrong = await passwordSignIn(email, 'correct horse battery stapler', '10.5.0.1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(wrong.body).toContain('The address or the password is wrong.');
    const right = await passwordSignIn(email.toUpperCase(), 'correct horse battery staple', '10.5.0.1');
    expect(right.statusCode).toBe(303);
    const token = /sb_session=(mbr_[A-Za-z0-9_-]{43})/.exec(String(right.headers['set-cookie']))?.[1];
    const me = await t.app.inject({ method: 'GET', url: '/v1/session', headers: { cookie: `sb_session=${token}` } });
    expect(me.json().member.id).toBe(created.id);
  });

  it('lets a sign-in link set a new password in place of the old one', async () => {
    const email = address('forgot');
    await invite(email, [{ role: 'viewer', profile_id: null }]);
    const invitation = linkIn(await mailTo(email, 'You are invited'), '/members/accept');
    await submit(invitation, await openPage(invitation), { password: 'the first password' });
    const page = await openPage('/members/sign-in', '', '10.6.0.1');
    await submit('/members/sign-in', page, { email }, '10.6.0.1');
    const link = linkIn(await mailTo(email, 'Sign in to'), '/members/sign-in');
    expect((await submit(link, await openPage(link), { password: 'the second password' })).statusCode).toBe(303);
    expect((await passwordSignIn(email, 'the first password', '10.6.0.2')).statusCode).toBe(401);
    expect((await passwordSignIn(email, 'the second password', '10.6.0.3')).statusCode).toBe(303);
  });

  it('limits attempts to 5 an address and 20 an IP every 15 minutes, and refuses an address without a password with the same answer', async () => {
    const email = address('guessed');
    await invite(email, [{ role: 'viewer', profile_id: null }]);
    const invitation = linkIn(await mailTo(email, 'You are invited'), '/members/accept');
    await submit(invitation, await openPage(invitation), { password: 'a password to guess' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await passwordSignIn(email, `guess number ${i}`, `10.7.0.${i + 1}`)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Limited, even the right password waits.
    expect((await passwordSignIn(email, 'a password to guess', '10.7.1.1')).statusCode).toBe(429);
    const nobody = await passwordSignIn(address('nobody'), 'any password at all', '10.7.2.1');
    expect(nobody.statusCode).toBe(401);
    const fromOne: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      fromOne.push((await passwordSignIn(address('sprayed'), 'a common password', '10.8.0.1')).statusCode);
    }
    expect(fromOne.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(fromOne[20]).toBe(429);
  });
});

describe('passwords, where the operator does not allow them', () => {
  it('offers no password field, takes none, and has no password sign-in', async () => {
    const plain = await startTestApp({ PUBLIC_URL: 'https://switchboard.example.test' });
    try {
      const o = await plain.createOwner('Plain agency');
      const res = await plain.app.inject({
        method: 'POST',
        url: '/v1/members',
        headers: auth(o.key),
        payload: { email: 'no.password@people.example.test', roles: [{ role: 'viewer', profile_id: null }] },
      });
      const memberId = res.json().id;
      const signIn = await plain.app.inject({ method: 'GET', url: '/members/sign-in' });
      expect(signIn.body).not.toContain('name="password"');
      const mails: { text: string }[] = [];
      await plain.startWorker({
        sendMail: async (mail) => {
          mails.push(mail);
          return { refused: [] };
        },
      });
      const path = await eventually(async () => /\/members\/accept\/[A-Za-z0-9_-]{43}/.exec(mails[0]?.text ?? '')?.[0]);
      const page = await plain.app.inject({ method: 'GET', url: path });
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('name="password"');
      const cookie = String(page.headers['set-cookie']).split(';')[0] ?? '';
      const csrf = /name="csrf" value="([^"]*)"/.exec(page.body)?.[1] ?? '';
      const accepted = await plain.app.inject({
        method: 'POST',
        url: path,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ csrf, password: 'a password nobody asked for' }).toString(),
      });
      expect(accepted.statusCode).toBe(303);
      const post = await plain.app.inject({
        method: 'POST',
        url: '/members/sign-in/password',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=no.password%40people.example.test&password=whatever',
      });
      // No route takes a password: the address is a sign-in link's, and the form came from no page of it.
      expect(post.statusCode).toBe(403);
      expect(post.headers['set-cookie']).toBeUndefined();
      const [row] = await plain.database.db.select().from(members).where(eq(members.id, memberId));
      expect(row?.passwordHash).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
