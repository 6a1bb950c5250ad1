import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetClock } from '../../src/clock.ts';
import { deleteOldAuditEntries } from '../../src/modules/audit/index.ts';
import { CRONTAB } from '../../src/tasks.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { readyContainersQuickly, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount } from '../helpers/sandbox-accounts.ts';
import { apiKeys, auditEntries, profiles } from '../helpers/tables.ts';

/**
 * The audit log (docs/audit-log.md): every change made through the API, a dashboard session or
 * a client's approval link is recorded with who made it, what, when and from where, and
 * `GET /v1/audit-log` lists the entries to the owner. Requests go over real HTTP, so the
 * address and User-Agent recorded are a client's.
 */

let sandbox: TestSandbox;
let t: TestApp;
let owner: TestOwner;
let ownerKeyId: string;
let base: string;
let receiver: Receiver;
const logged: Record<string, unknown>[] = [];

const AGENT = 'agency-tool/2.1 (<b>ops</b>)';

beforeAll(async () => {
  sandbox = await startSandbox();
  await readyContainersQuickly(sandbox);
  receiver = await startReceiver();
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, undefined, {
    platforms: sandbox.platforms,
    listen: true,
    log: pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) }),
  });
  base = t.url ?? '';
  owner = await t.createOwner('Audited Agency');
  const [key] = await t.database.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.ownerId, owner.ownerId)));
  ownerKeyId = key?.id ?? '';
});
afterAll(async () => {
  resetClock();
  await t.close();
  await receiver.close();
  await sandbox.close();
});

interface Answer {
  status: number;
  requestId: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
  body: any;
}

/** A request as a client makes it, over HTTP with its own User-Agent. */
async function call(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      'user-agent': AGENT,
      ...(options.key === undefined ? {} : auth(options.key)),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    requestId: response.headers.get('request-id') ?? '',
    body: text === '' ? null : JSON.parse(text),
  };
}

async function auditLog(query = '', key = owner.key, headers: Record<string, string> = {}): Promise<Answer> {
  return await call('GET', `/v1/audit-log${query}`, { key, headers });
}

/** The owner's entries of one request, by its Request-Id. */
async function entriesOf(requestId: string) {
  const all = await auditLog('?limit=100');
  expect(all.status).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
  return all.body.data.filter((e: any) => e.request_id === requestId);
}

async function newProfile(name: string): Promise<string> {
  const created = await call('POST', '/v1/profiles', { key: owner.key, body: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

describe('changes made through the API', () => {
  it('are recorded with the key by name, the operation, the object, the profile, the status and where the request came from', async () => {
    const created = await call('POST', '/v1/profiles', { key: owner.key, body: { name: 'Bakery' } });
    expect(created.status).toBe(201);
    const [entry, ...more] = await entriesOf(created.requestId);
    expect(more).toEqual([]);
    expect(entry).toEqual({
      id: expect.stringMatching(/^aud_[0-7][0-9a-hjkmnp-tv-z]{25}$/),
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      actor: { type: 'api_key', id: ownerKeyId, name: 'created with the owner' },
      via: 'api',
      operation: 'POST /v1/profiles',
      object_id: created.body.id,
      profile_id: created.body.id,
      status: 201,
      request_id: created.requestId,
      ip: '127.0.0.1',
      user_agent: AGENT,
    });
  });

  it("name a profile key's changes after the key, in its profile; a deleted object keeps its entries", async () => {
    const profileId = await newProfile('Florist');
    const key = await call('POST', `/v1/profiles/${profileId}/api-keys`, {
      key: owner.key,
      body: { name: 'Florist scheduler' },
    });
    expect(key.status).toBe(201);
    const hook = await call('POST', '/v1/webhooks', {
      key: key.body.key,
      body: { url: `${receiver.url}/florist`, events: ['post.published'] },
    });
    expect(hook.status).toBe(201);
    const patched = await call('PATCH', `/v1/webhooks/${hook.body.id}`, {
      key: key.body.key,
      body: { active: false },
    });
    expect(patched.status).toBe(200);
    const deleted = await call('DELETE', `/v1/webhooks/${hook.body.id}`, { key: key.body.key });
    expect(deleted.status).toBe(204);
    const keyGone = await call('DELETE', `/v1/profiles/${profileId}/api-keys/${key.body.id}`, { key: owner.key });
    expect(keyGone.status).toBe(204);

    const ofHook = await auditLog(`?object_id=${hook.body.id}`);
    expect(
      // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
      ofHook.body.data.map((e: any) => [e.operation, e.status, e.actor, e.profile_id, e.request_id]),
    ).toEqual([
      [
        'DELETE /v1/webhooks/{id}',
        204,
        { type: 'api_key', id: key.body.id, name: 'Florist scheduler' },
        profileId,
        deleted.requestId,
      ],
      [
        'PATCH /v1/webhooks/{id}',
        200,
        { type: 'api_key', id: key.body.id, name: 'Florist scheduler' },
        profileId,
        patched.requestId,
      ],
      [
        'POST /v1/webhooks',
        201,
        { type: 'api_key', id: key.body.id, name: 'Florist scheduler' },
        profileId,
        hook.requestId,
      ],
    ]);
    const [keyDeletion] = await entriesOf(keyGone.requestId);
    expect(keyDeletion).toMatchObject({
      operation: 'DELETE /v1/profiles/{id}/api-keys/{keyId}',
      object_id: key.body.id,
      profile_id: profileId,
      actor: { type: 'api_key', id: ownerKeyId },
    });
  });

  it('records nothing for a read, a refused change or a replayed answer', async () => {
    const before = await t.database.db.select({ id: auditEntries.id }).from(auditEntries);
    expect((await call('GET', '/v1/profiles', { key: owner.key })).status).toBe(200);
    expect((await call('POST', '/v1/profiles', { key: owner.key, body: { name: '' } })).status).toBe(400);
    expect((await call('DELETE', '/v1/webhooks/we_01jd0000000000000000000000', { key: owner.key })).status).toBe(404);
    const first = await call('POST', '/v1/profiles', {
      key: owner.key,
      body: { name: 'Once' },
      headers: { 'idempotency-key': 'audit-once' },
    });
    const replay = await call('POST', '/v1/profiles', {
      key: owner.key,
      body: { name: 'Once' },
      headers: { 'idempotency-key': 'audit-once' },
    });
    expect([first.status, replay.status]).toEqual([201, 201]);
    const after = await t.database.db.select({ id: auditEntries.id }).from(auditEntries);
    expect(after.length - before.length).toBe(1);
    expect(await entriesOf(first.requestId)).toHaveLength(1);
    expect(await entriesOf(replay.requestId)).toEqual([]);
  });

  it('marks a change made with a dashboard session as made through the dashboard, by the key it signed in with', async () => {
    const signIn = await fetch(`${base}/v1/session`, { method: 'POST', headers: auth(owner.key) });
    expect(signIn.status).toBe(201);
    const cookie = String(signIn.headers.get('set-cookie')).split(';')[0] ?? '';
    const csrf = ((await signIn.json()) as { csrf_token: string }).csrf_token;
    const created = await call('POST', '/v1/profiles', {
      body: { name: 'From the dashboard' },
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(created.status).toBe(201);
    const [entry] = await entriesOf(created.requestId);
    expect(entry).toMatchObject({
      actor: { type: 'api_key', id: ownerKeyId, name: 'created with the owner' },
      via: 'dashboard',
      operation: 'POST /v1/profiles',
      object_id: created.body.id,
    });
    // Signing in is a change too, made with the key itself.
    const [session] = await entriesOf(signIn.headers.get('request-id') ?? '');
    expect(session).toMatchObject({ operation: 'POST /v1/session', via: 'api', status: 201 });
  });

  it('are answered when the entry cannot be written, and the entry is logged for the operator in full', async () => {
    const pool = t.database.pool;
    await pool.query(`create function refuse_audit() returns trigger language plpgsql as $$
      begin
        if new.operation = 'POST /v1/connect/redirect-origins' then raise exception 'the audit store refuses'; end if;
        return new;
      end $$`);
    await pool.query(
      'create trigger refuse_audit before insert on audit_entries for each row execute function refuse_audit()',
    );
    try {
      const made = await call('POST', '/v1/connect/redirect-origins', {
        key: owner.key,
        body: { origin: 'https://audit.example.com' },
      });
      expect(made.status).toBe(201);
      const origins = await call('GET', '/v1/connect/redirect-origins', { key: owner.key });
      // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
      expect(origins.body.data.map((o: any) => o.origin)).toContain('https://audit.example.com');
      expect(await entriesOf(made.requestId)).toEqual([]);
      const line = logged.find((l) => l.reqId === made.requestId && l.level === 50);
      expect(line).toMatchObject({
        msg: 'a change was made but its audit entry could not be written; the entry is in this line',
        audit_entry: {
          ownerId: owner.ownerId,
          actor: { type: 'api_key', id: ownerKeyId, name: 'created with the owner' },
          operation: 'POST /v1/connect/redirect-origins',
          objectId: made.body.id,
          status: 201,
          origin: { requestId: made.requestId, ip: '127.0.0.1', userAgent: AGENT },
        },
      });
    } finally {
      await pool.query('drop trigger refuse_audit on audit_entries');
      await pool.query('drop function refuse_audit()');
    }
  });

  it('name the profile of what an owner key changes by path, deleted or named by external_id', async () => {
    const profileId = (
      await call('POST', '/v1/profiles', { key: owner.key, body: { name: 'By reference', external_id: 'audited-ref' } })
    ).body.id;
    const hook = await call('POST', '/v1/webhooks', {
      key: owner.key,
      body: { url: `${receiver.url}/bound`, events: ['post.published'], profile_id: profileId },
    });
    expect(hook.status).toBe(201);
    const hookGone = await call('DELETE', `/v1/webhooks/${hook.body.id}`, { key: owner.key });
    expect(hookGone.status).toBe(204);
    expect((await entriesOf(hookGone.requestId))[0]).toMatchObject({ object_id: hook.body.id, profile_id: profileId });

    const renamed = await call('PATCH', '/v1/profiles/audited-ref', { key: owner.key, body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    const profileGone = await call('DELETE', '/v1/profiles/audited-ref', { key: owner.key });
    expect(profileGone.status).toBe(202);
    for (const change of [renamed, profileGone]) {
      expect((await entriesOf(change.requestId))[0]).toMatchObject({ object_id: profileId, profile_id: profileId });
    }
  });

  it("outlive a deleted profile, with the deletion's own entry, once its data is gone", async () => {
    const profileId = await newProfile('Closing down');
    const deleted = await call('DELETE', `/v1/profiles/${profileId}`, { key: owner.key });
    expect(deleted.status).toBe(202);
    await t.startWorker({ platforms: sandbox.platforms });
    try {
      await eventually(async () => {
        const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, profileId));
        return row === undefined ? true : undefined;
      });
    } finally {
      await t.stopWorkers();
    }
    const entries = await auditLog(`?profile_id=${profileId}`);
    // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
    expect(entries.body.data.map((e: any) => e.operation)).toEqual(['DELETE /v1/profiles/{id}', 'POST /v1/profiles']);
  });
});

describe('a decision on an approval link', () => {
  it('is recorded with the link as the actor, through the approval page', async () => {
    const profile = await call('POST', '/v1/profiles', {
      key: owner.key,
      body: { name: 'Needs approval', post_approval_required: true },
    });
    const account = await connectSandboxAccount(t, sandbox, owner, 'threads', 'audited_approval', {
      profileId: profile.body.id,
    });
    const post = await call('POST', '/v1/posts', {
      key: owner.key,
      body: {
        account_ids: [account.id],
        text: 'Needs a yes',
        scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const link = await call('POST', `/v1/posts/${post.body.id}/approval-links`, { key: owner.key });
    expect(link.status).toBe(201);
    const page = await fetch(link.body.url, { headers: { 'user-agent': 'Client browser' } });
    const html = await page.text();
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const form = new URLSearchParams({
      csrf: /name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? '',
      version: /name="version" value="([^"]*)"/.exec(html)?.[1] ?? '',
      decision: 'approve',
    });
    const decided = await fetch(link.body.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'user-agent': 'Client browser' },
      body: form,
    });
    expect(decided.status).toBe(200);

    const entries = await auditLog(`?actor_id=${link.body.id}`);
    expect(entries.body.data).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        created_at: expect.any(String),
        actor: { type: 'approval_link', id: link.body.id, name: null },
        via: 'approval_page',
        operation: 'POST /approve/{token}',
        object_id: post.body.id,
        profile_id: profile.body.id,
        status: 200,
        request_id: decided.headers.get('request-id'),
        ip: '127.0.0.1',
        user_agent: 'Client browser',
      },
    ]);
  });
});

describe('GET /v1/audit-log', () => {
  it('filters by actor, profile, object and time, newest first, a page at a time', async () => {
    const profileId = await newProfile('Paged');
    const made: string[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const hook = await call('POST', '/v1/webhooks', {
        key: owner.key,
        headers: { 'service-profile': profileId },
        body: { url: `${receiver.url}/${name}`, events: ['post.published'] },
      });
      expect(hook.status).toBe(201);
      made.push(hook.requestId);
    }
    const inProfile = await auditLog(`?profile_id=${profileId}&limit=2`);
    expect(inProfile.status).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
    expect(inProfile.body.data.map((e: any) => e.request_id)).toEqual([made[2], made[1]]);
    const next = await auditLog(`?profile_id=${profileId}&limit=2&cursor=${inProfile.body.next_cursor}`);
    // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
    expect(next.body.data.map((e: any) => e.operation)).toEqual(['POST /v1/webhooks', 'POST /v1/profiles']);
    expect(next.body.next_cursor).toBeNull();

    // The Service-Profile header narrows the log as the filter does; another profile's filter then finds nothing.
    const scoped = await auditLog('?limit=100', owner.key, { 'service-profile': profileId });
    expect(scoped.body.data).toHaveLength(4);
    expect(
      (await auditLog(`?profile_id=${owner.defaultProfileId}`, owner.key, { 'service-profile': profileId })).body,
    ).toEqual({ data: [], next_cursor: null });

    const first = (await entriesOf(made[0] ?? ''))[0];
    const between = await auditLog(
      `?profile_id=${profileId}&from=${encodeURIComponent(first.created_at)}&to=${encodeURIComponent(first.created_at)}`,
    );
    // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
    expect(between.body.data.map((e: any) => e.request_id)).toContain(made[0]);
    expect((await auditLog(`?actor_id=key_01jd0000000000000000000000`)).body.data).toEqual([]);
  });

  it('is refused to a profile key, and refuses a cursor it did not give or an unknown filter, changing nothing', async () => {
    const key = await call('POST', `/v1/profiles/${owner.defaultProfileId}/api-keys`, { key: owner.key, body: {} });
    const refused = await auditLog('', key.body.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('owner_key_required');
    const badCursor = await auditLog('?cursor=bm90LWEtY3Vyc29y');
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'query.cursor', message: 'is not a cursor this API returned' }],
    });
    const unknown = await auditLog('?who=me');
    expect(unknown.status).toBe(400);
    const badTime = await auditLog('?from=yesterday');
    expect(badTime.status).toBe(400);
    expect(badTime.body.error.code).toBe('validation_failed');
    expect((await call('GET', '/v1/audit-log')).status).toBe(401);
  });

  it("shows only the caller's owner's entries", async () => {
    const other = await t.createOwner('Another agency');
    const theirs = await call('POST', '/v1/profiles', { key: other.key, body: { name: 'Theirs' } });
    expect(theirs.status).toBe(201);
    expect(await entriesOf(theirs.requestId)).toEqual([]);
    const own = await auditLog('?limit=100', other.key);
    // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
    expect(own.body.data.map((e: any) => e.request_id)).toEqual([theirs.requestId]);
  });
});

describe('retention', () => {
  it('is an hourly task that deletes entries past the retention time in batches, and keeps the rest', async () => {
    expect(CRONTAB.split('\n')).toContain('31 * * * * delete_old_audit_entries ?priority=10');
    const day = 86_400_000;
    const old = Array.from({ length: 7 }, (_, i) => ({
      id: `aud_old_${i}`,
      ownerId: owner.ownerId,
      profileId: null,
      actorType: 'api_key' as const,
      actorId: ownerKeyId,
      actorName: null,
      via: 'api' as const,
      operation: 'POST /v1/profiles',
      objectId: null,
      status: 201,
      requestId: `req_old_${i}`,
      ip: null,
      userAgent: null,
      createdAt: new Date(Date.now() - 31 * day - i * 1000),
    }));
    await t.database.db.insert(auditEntries).values(old);
    const recent = await call('POST', '/v1/profiles', { key: owner.key, body: { name: 'Recent' } });
    // Three at a time: three statements (3, 3, then 1).
    const statements = vi.spyOn(t.database.db, 'execute');
    try {
      expect(await deleteOldAuditEntries(t.database.db, 30 * day, 3)).toBe(7);
      expect(statements).toHaveBeenCalledTimes(3);
    } finally {
      statements.mockRestore();
    }
    const left = await t.database.db
      .select({ id: auditEntries.id, requestId: auditEntries.requestId })
      .from(auditEntries);
    expect(left.filter((e) => e.id.startsWith('aud_old_'))).toEqual([]);
    expect(left.map((e) => e.requestId)).toContain(recent.requestId);
  });
});
