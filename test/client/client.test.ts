import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  type components,
  createClient,
  type ErrorBody,
  paginate,
  type SwitchboardClient,
  SwitchboardError,
} from '../../src/client/index.ts';
import { startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { imageFile } from '../helpers/media-files.ts';
import { recordRequests, type SeenRequest } from './seen-requests.ts';

/** The typed client (docs/client.md) against the running service, over real HTTP. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Profile = components['schemas']['Profile'];

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

describe('the client on the service', () => {
  let t: TestApp;
  let seen: SeenRequest[];

  beforeAll(async () => {
    t = await startTestApp({}, undefined, { listen: true });
    seen = recordRequests(t.app.server);
  });
  afterAll(() => t.close());

  async function ownerClient(): Promise<{ owner: TestOwner; client: SwitchboardClient }> {
    const owner = await t.createOwner();
    return { owner, client: createClient({ baseUrl: t.url as string, apiKey: owner.key }) };
  }

  it('creates and lists profiles, typed by the document, with an Idempotency-Key of its own on the POST', async () => {
    const { owner, client } = await ownerClient();
    const from = seen.length;

    const created = await client.POST('/v1/profiles', { body: { name: 'Acme Bakery', external_id: 'acme-42' } });
    expectTypeOf(created.data).toEqualTypeOf<Profile | undefined>();
    expect(created.response.status).toBe(201);
    expect(created.error).toBeUndefined();
    expect(created.data).toMatchObject({ name: 'Acme Bakery', external_id: 'acme-42', is_default: false });
    const acmeId = created.data?.id;
    expect(acmeId).toMatch(/^prf_/);

    const listed = await client.GET('/v1/profiles');
    expectTypeOf(listed.data).toEqualTypeOf<{ data: Profile[]; next_cursor: string | null } | undefined>();
    expect(listed.data?.data.map((p) => [p.id, p.name])).toEqual([
      [owner.defaultProfileId, 'Default'],
      [acmeId, 'Acme Bakery'],
    ]);
    expect(listed.data?.next_cursor).toBeNull();

    // An owner key scoped to one profile (Service-Profile): the list holds only it.
    const scoped = createClient({ baseUrl: t.url as string, apiKey: owner.key, profile: 'acme-42' });
    const inProfile = await scoped.GET('/v1/profiles');
    expect(inProfile.data?.data.map((p) => p.id)).toEqual([acmeId]);

    expect(seen.slice(from).map((r) => [r.method, r.url, r.status])).toEqual([
      ['POST', '/v1/profiles', 201],
      ['GET', '/v1/profiles', 200],
      ['GET', '/v1/profiles', 200],
    ]);
    expect(seen[from]?.idempotencyKey).toMatch(UUID);
    expect(seen[from + 1]?.idempotencyKey).toBeUndefined();
  });

  it('sends no Idempotency-Key where the API refuses one: creating a profile key works, and the key does', async () => {
    const { owner, client } = await ownerClient();
    const from = seen.length;
    const created = await client.POST('/v1/profiles/{id}/api-keys', {
      params: { path: { id: owner.defaultProfileId } },
      body: { name: 'Scheduler' },
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ profile_id: owner.defaultProfileId, name: 'Scheduler' });
    expect(seen.slice(from).map((r) => [r.method, r.status, r.idempotencyKey])).toEqual([['POST', 201, undefined]]);

    const profileClient = createClient({ baseUrl: t.url as string, apiKey: created.data?.key as string });
    const webhooks = await profileClient.GET('/v1/webhooks');
    expect(webhooks.response.status).toBe(200);
    expect(webhooks.data).toEqual({ data: [], next_cursor: null });
  });

  it('pages through more items than a page holds, in order, following next_cursor', async () => {
    const { owner, client } = await ownerClient();
    const ids = [owner.defaultProfileId];
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five', 'Six']) {
      const { data } = await client.POST('/v1/profiles', { body: { name } });
      ids.push(data?.id as string);
    }
    const from = seen.length;

    const profiles = await all(paginate(client, '/v1/profiles', { params: { query: { limit: 2 } } }));
    expectTypeOf(profiles).toEqualTypeOf<Profile[]>();
    expect(profiles.map((p) => p.id)).toEqual(ids);
    expect(profiles.map((p) => p.name)).toEqual(['Default', 'One', 'Two', 'Three', 'Four', 'Five', 'Six']);
    // Seven items, two a page: four pages, the first without a cursor.
    const pages = seen.slice(from).map((r) => new URL(r.url, 'http://x'));
    expect(pages.map((u) => [u.pathname, u.searchParams.get('limit'), u.searchParams.has('cursor')])).toEqual([
      ['/v1/profiles', '2', false],
      ['/v1/profiles', '2', true],
      ['/v1/profiles', '2', true],
      ['/v1/profiles', '2', true],
    ]);

    // A list under a path parameter, with its own item type.
    const keyIds: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const { data } = await client.POST('/v1/profiles/{id}/api-keys', {
        params: { path: { id: ids[1] as string } },
        body: { name },
      });
      keyIds.push(data?.id as string);
    }
    const keys = await all(
      paginate(client, '/v1/profiles/{id}/api-keys', {
        params: { path: { id: ids[1] as string }, query: { limit: 1 } },
      }),
    );
    expectTypeOf(keys).toEqualTypeOf<components['schemas']['ApiKey'][]>();
    expect(keys.map((k) => k.id)).toEqual(keyIds);
  });

  it("answers an error typed with the API's code, and the iterator throws it", async () => {
    const { client } = await ownerClient();
    const missing = await client.GET('/v1/profiles/{id}', { params: { path: { id: 'no-such-client' } } });
    expectTypeOf(missing.error).toEqualTypeOf<ErrorBody | undefined>();
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error?.error).toMatchObject({
      code: 'profile_not_found',
      request_id: expect.stringMatching(/^req_/),
    });

    const failing = all(paginate(client, '/v1/profiles/{id}/api-keys', { params: { path: { id: 'no-such-client' } } }));
    await expect(failing).rejects.toBeInstanceOf(SwitchboardError);
    await expect(failing).rejects.toMatchObject({
      status: 404,
      code: 'profile_not_found',
      requestId: expect.stringMatching(/^req_/),
      message: expect.any(String),
    });
  });

  it('uploads a file as multipart/form-data through a bodySerializer', async () => {
    const { owner, client } = await ownerClient();
    const photo = new Blob([new Uint8Array(await imageFile('jpeg'))], { type: 'image/jpeg' });
    const uploaded = await client.POST('/v1/media', {
      body: { file: 'photo.jpg' },
      bodySerializer: () => {
        const form = new FormData();
        form.append('file', photo, 'photo.jpg');
        return form;
      },
    });
    expectTypeOf(uploaded.data).toEqualTypeOf<components['schemas']['Media'] | undefined>();
    expect(uploaded.response.status).toBe(201);
    expect(uploaded.data).toMatchObject({
      profile_id: owner.defaultProfileId,
      type: 'image',
      mime_type: 'image/jpeg',
      width: 64,
      height: 48,
    });
  });

  it('does a POST once when the same Idempotency-Key is sent again: the answer is replayed', async () => {
    const { owner, client } = await ownerClient();
    const send = () =>
      client.POST('/v1/profiles', {
        params: { header: { 'idempotency-key': 'acme-launch-1' } },
        body: { name: 'Launch' },
      });
    const first = await send();
    const again = await send();
    expect([first.response.status, again.response.status]).toEqual([201, 201]);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data?.id).toBe(first.data?.id);
    const listed = await client.GET('/v1/profiles');
    expect(listed.data?.data.map((p) => p.id)).toEqual([owner.defaultProfileId, first.data?.id]);
  });

  it('retries a POST whose answer was lost with its Idempotency-Key: the service replays it, nothing doubles', async () => {
    const owner = await t.createOwner();
    let passedOn = 0;
    const client = createClient({
      baseUrl: t.url as string,
      apiKey: owner.key,
      // A gateway in front of the service that passed the first request on and then answered
      // 429 itself (its Retry-After 0), so the client never saw the service's answer.
      fetch: async (request) => {
        const answer = await fetch(request);
        passedOn += 1;
        if (passedOn > 1) return answer;
        await answer.arrayBuffer();
        return Response.json(
          { error: { code: 'rate_limited', message: 'Gateway busy.', request_id: 'req_gateway' } },
          { status: 429, headers: { 'Retry-After': '0' } },
        );
      },
    });
    const from = seen.length;
    const created = await client.POST('/v1/profiles', { body: { name: 'Only once' } });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('idempotent-replayed')).toBe('true');

    const posts = seen.slice(from);
    expect(posts.map((r) => [r.method, r.url, r.status])).toEqual([
      ['POST', '/v1/profiles', 201],
      ['POST', '/v1/profiles', 201],
    ]);
    expect(posts[0]?.idempotencyKey).toMatch(UUID);
    expect(posts[1]?.idempotencyKey).toBe(posts[0]?.idempotencyKey);
    const listed = await client.GET('/v1/profiles');
    expect(listed.data?.data.map((p) => p.name)).toEqual(['Default', 'Only once']);
    expect(listed.data?.data[1]?.id).toBe(created.data?.id);
  });
});

describe('the client on a rate-limited service', () => {
  let t: TestApp;
  let seen: SeenRequest[];

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' }, undefined, { listen: true });
    seen = recordRequests(t.app.server);
  });
  afterAll(() => t.close());

  it('waits the Retry-After of a 429, then sends the request again, with the same Idempotency-Key', async () => {
    const owner = await t.createOwner();
    // What the client received, and when: the Retry-After it was told to wait.
    const received: { status: number; retryAfter: string | null; at: number }[] = [];
    const client = createClient({
      baseUrl: t.url as string,
      apiKey: owner.key,
      fetch: async (request) => {
        const answer = await fetch(request);
        received.push({ status: answer.status, retryAfter: answer.headers.get('retry-after'), at: Date.now() });
        return answer;
      },
    });
    // The key's first request counts against the address; then the key counts on its own: 2 of 3.
    for (let i = 0; i < 3; i += 1) expect((await client.GET('/v1/profiles')).response.status).toBe(200);
    // Most of the window is gone, so its Retry-After is seconds, not up to a minute, and the
    // service (which counts from the window's start) is open again when the client retries.
    // Ten seconds are left: the two requests below fit in them on the busiest machine.
    await t.database.pool.query(`update rate_limit_windows set started_at = started_at - interval '50 seconds'`);
    // The third of the key's window: allowed, and the key is now at its limit.
    expect((await client.GET('/v1/profiles')).response.status).toBe(200);
    const from = seen.length;
    const receivedFrom = received.length;

    const created = await client.POST('/v1/profiles', { body: { name: 'After the wait' } });
    expect(created.response.status).toBe(201);
    expect(created.data?.name).toBe('After the wait');

    const posts = seen.slice(from);
    expect(posts.map((r) => [r.method, r.url, r.status])).toEqual([
      ['POST', '/v1/profiles', 429],
      ['POST', '/v1/profiles', 201],
    ]);
    const [limited, retried] = posts as [SeenRequest, SeenRequest];
    expect(retried.idempotencyKey).toMatch(UUID);
    expect(retried.idempotencyKey).toBe(limited.idempotencyKey);
    const answers = received.slice(receivedFrom);
    expect(answers.map((a) => a.status)).toEqual([429, 201]);
    const retryAfterSeconds = Number(answers[0]?.retryAfter);
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(retryAfterSeconds).toBeLessThanOrEqual(10);
    // The retry came no sooner than the Retry-After after the 429 (less a little for timer rounding).
    expect(retried.arrivedAt - (answers[0]?.at as number)).toBeGreaterThanOrEqual(retryAfterSeconds * 1000 - 50);

    const names = await all(paginate(client, '/v1/profiles'));
    expect(names.map((p) => p.name)).toEqual(['Default', 'After the wait']);
  });
});
