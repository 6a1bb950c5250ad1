import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/http/error-handler.ts';
import { applySchemaDefaults, MultiLineText } from '../../src/http/schemas.ts';
import { makeValidatorCompiler } from '../../src/http/validation.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { exchange, type RawResponse } from '../helpers/raw-http.ts';
import { apiKeys, connectLinks, connectSettings, profiles } from '../helpers/tables.ts';

/**
 * The text rule of docs/api-conventions.md ("Text"): no string anywhere in a request may
 * hold NUL or an unpaired surrogate; single-line text (names) also refuses C0, DEL and C1
 * controls; multi-line text allows tab, LF and CR.
 */

let t: TestApp;
let owner: TestOwner;

beforeAll(async () => {
  t = await startTestApp(
    { RATE_LIMIT_PER_MINUTE: '100000' },
    (app) => {
      // A multi-line field as later modules (replies, post text) will have one.
      app.post(
        '/__text',
        {
          schema: {
            body: Type.Object(
              { text: MultiLineText({ maxLength: 100, description: 'multi-line' }) },
              { additionalProperties: false },
            ),
          },
        },
        async (request) => request.body,
      );
    },
    { listen: true },
  );
  owner = await t.createOwner();
  const origin = await t.app.inject({
    method: 'POST',
    url: '/v1/connect/redirect-origins',
    headers: auth(owner.key),
    payload: { origin: 'https://app.example.test' },
  });
  expect(origin.statusCode).toBe(201);
});
afterAll(() => t.close());

async function send(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers = auth(owner.key)) {
  return await t.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** Expects `400 validation_failed` in the documented shape, with `field` among the details. */
function expectRefused(res: Awaited<ReturnType<typeof send>>, field: string) {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body.error).toMatchObject({ code: 'validation_failed', request_id: res.headers['request-id'] });
  expect(res.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  expect(body.error.details.map((d: { field: string }) => d.field)).toContain(field);
}

async function profileNames(): Promise<string[]> {
  const rows = await t.database.db.select().from(profiles).where(eq(profiles.ownerId, owner.ownerId));
  return rows.map((r) => r.name);
}

describe('NUL (U+0000)', () => {
  it('is refused in a path id as 400 validation_failed on path.id, on every kind of route', async () => {
    for (const url of ['/v1/profiles/%00', '/v1/profiles/a%00b/api-keys', '/v1/webhooks/we_%00', '/v1/accounts/%00']) {
      const res = await send('GET', url);
      expectRefused(res, 'path.id');
      expect(res.json().error.details).toContainEqual({
        field: 'path.id',
        message: 'must not contain the NUL character (U+0000)',
      });
    }
    expectRefused(await send('POST', '/v1/accounts/acc_%00/move', { profile_id: owner.defaultProfileId }), 'path.id');
    expectRefused(
      await send('POST', '/v1/profiles/%00/connect-links', { redirect_url: 'https://app.example.test/' }),
      'path.id',
    );
  });

  it('is refused in body strings (state, profile_id) and at any depth, storing nothing', async () => {
    const linksBefore = await t.database.db.select().from(connectLinks).where(eq(connectLinks.ownerId, owner.ownerId));
    const link = await send('POST', `/v1/profiles/${owner.defaultProfileId}/connect-links`, {
      redirect_url: 'https://app.example.test/back',
      state: 'abc\u0000def',
    });
    expectRefused(link, 'body.state');
    expectRefused(await send('POST', '/v1/accounts/acc_x/move', { profile_id: 'client\u0000' }), 'body.profile_id');
    const nested = await send('POST', `/v1/profiles/${owner.defaultProfileId}/connect-links`, {
      redirect_url: 'https://app.example.test/back',
      platforms: ['threads', 'x\u0000'],
    });
    expectRefused(nested, 'body.platforms.1');
    expect(await t.database.db.select().from(connectLinks).where(eq(connectLinks.ownerId, owner.ownerId))).toEqual(
      linksBefore,
    );
  });

  it('is refused in query values', async () => {
    const res = await send('GET', '/v1/profiles?cursor=a%00');
    expectRefused(res, 'query.cursor');
    expect(res.json().error.details).toContainEqual({
      field: 'query.cursor',
      message: 'must not contain the NUL character (U+0000)',
    });
  });

  it('is refused in the Service-Profile header before it is looked up', async () => {
    const res = await send('GET', '/v1/profiles', undefined, auth(owner.key, 'client\u0000'));
    expectRefused(res, 'header.service-profile');
  });
});

describe('unpaired surrogates', () => {
  it('are refused in a name rather than stored as U+FFFD', async () => {
    const before = await profileNames();
    for (const name of ['a\ud800b', 'a\udc00', '\udc00\ud800', 'end\ud83d']) {
      const res = await send('POST', '/v1/profiles', { name });
      expectRefused(res, 'body.name');
      expect(res.json().error.details).toContainEqual({
        field: 'body.name',
        message: 'must not contain an unpaired UTF-16 surrogate (it is not a character)',
      });
    }
    expect(await profileNames()).toEqual(before);
  });

  it('are refused in any string, e.g. a connect link state', async () => {
    const res = await send('POST', `/v1/profiles/${owner.defaultProfileId}/connect-links`, {
      redirect_url: 'https://app.example.test/back',
      state: '\ud800',
    });
    expectRefused(res, 'body.state');
  });

  it('leave characters outside the BMP (a surrogate pair) alone', async () => {
    const res = await send('POST', '/v1/profiles', { name: '🚀 Launch' });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('🚀 Launch');
    expect(await profileNames()).toContain('🚀 Launch');
  });
});

/** Sends `json` (latin1: each character one byte, so any byte can be written) as a request's body. */
async function sendBytes(method: 'POST' | 'PATCH', path: string, json: string): Promise<RawResponse> {
  const port = new URL(t.url as string).port;
  return await exchange(
    Number(port),
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${owner.key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
  );
}

describe('bytes that are not UTF-8 in a JSON body', () => {
  it('are refused as 400 invalid_json on every route, rather than stored as U+FFFD', async () => {
    const { db } = t.database;
    const stored = async () => ({
      profiles: await profileNames(),
      settings: await db.select().from(connectSettings).where(eq(connectSettings.ownerId, owner.ownerId)),
      keys: await db.select().from(apiKeys).where(eq(apiKeys.ownerId, owner.ownerId)),
    });
    const before = await stored();
    const attempts: [method: 'POST' | 'PATCH', path: string, json: string][] = [
      // A byte-order mark of UTF-16, which no UTF-8 text holds.
      ['POST', '/v1/profiles', '{"name":"A\xff\xfeB"}'],
      // U+D800 written out in three bytes (CESU-8): a surrogate, which UTF-8 has no bytes for.
      ['PATCH', '/v1/connect/settings', '{"brand_name":"Agency \xed\xa0\x80"}'],
      // "/" in two bytes (overlong), and a lone continuation byte.
      ['PATCH', `/v1/profiles/${owner.defaultProfileId}`, '{"name":"a\xc0\xafb"}'],
      ['POST', `/v1/profiles/${owner.defaultProfileId}/api-keys`, '{"name":"key \x80"}'],
      // A sequence cut off by the end of the body.
      ['POST', '/v1/profiles', '{"name":"cut \xe2\x82'],
    ];
    for (const [method, path, json] of attempts) {
      const res = await sendBytes(method, path, json);
      const where = `${method} ${path} ${JSON.stringify(json)}: ${res.status} ${res.body}`;
      expect(res.status, where).toBe(400);
      expect(JSON.parse(res.body).error, where).toMatchObject({
        code: 'invalid_json',
        request_id: res.headers['request-id'],
      });
    }
    expect(await stored()).toEqual(before);
  });

  it('leaves UTF-8 text as sent: accents, a no-break space and characters outside the BMP', async () => {
    const name = 'Zoë\u00a0🚀';
    const res = await sendBytes(
      'POST',
      '/v1/profiles',
      Buffer.from(JSON.stringify({ name }), 'utf8').toString('latin1'),
    );
    expect(res.status, res.body).toBe(201);
    expect(JSON.parse(res.body).name).toBe(name);
    expect(await profileNames()).toContain(name);
  });
});

describe('single-line text (names)', () => {
  it('refuses C0 controls, DEL and C1 controls such as U+0085', async () => {
    const before = await profileNames();
    for (const name of ['a\u0085b', 'x\u0080', '\u009fy', 'a\u007fb', 'tab\there', 'line\nbreak', 'cr\rhere']) {
      expectRefused(await send('POST', '/v1/profiles', { name }), 'body.name');
    }
    expectRefused(await send('PATCH', '/v1/connect/settings', { brand_name: 'Ada\u0085' }), 'body.brand_name');
    expect(await profileNames()).toEqual(before);
  });

  it('takes other characters, e.g. a no-break space and accents', async () => {
    const res = await send('POST', '/v1/profiles', { name: 'Café\u00a0Crème' });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('Café\u00a0Crème');
  });
});

describe('multi-line text', () => {
  it('allows tab, LF and CR', async () => {
    const text = 'first line\r\n\tsecond line\nthird';
    const res = await t.app.inject({ method: 'POST', url: '/__text', payload: { text } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ text });
  });

  it('refuses the other controls, NUL and unpaired surrogates', async () => {
    for (const text of ['bell\u0007', 'next\u0085line', 'del\u007f', 'vt\u000b', 'nul\u0000', 'half\ud800']) {
      const res = await t.app.inject({ method: 'POST', url: '/__text', payload: { text } });
      expectRefused(res, 'body.text');
    }
  });
});

describe('a /v1 route that does not describe its path parameters', () => {
  it('still has them validated by the text rule, and unknown query parameters refused', async () => {
    // The /v1 scope's own hooks, on an app of its own: no route of today's API lacks a params schema.
    const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    app.setValidatorCompiler(makeValidatorCompiler());
    installErrorHandling(app);
    app.addHook('onRoute', applySchemaDefaults);
    app.get(
      '/v1/things/:thingId',
      { schema: { summary: 'A route without params or query schemas' } },
      async (request) => ({
        thing: (request.params as { thingId: string }).thingId,
      }),
    );
    await app.ready();
    try {
      expect((await app.inject({ method: 'GET', url: '/v1/things/t1' })).json()).toEqual({ thing: 't1' });
      const nul = await app.inject({ method: 'GET', url: '/v1/things/a%00b' });
      expect(nul.statusCode).toBe(400);
      expect(nul.json().error).toMatchObject({ code: 'validation_failed' });
      expect(nul.json().error.details.map((d: { field: string }) => d.field)).toContain('path.thingId');
      const query = await app.inject({ method: 'GET', url: '/v1/things/t1?unknown=1' });
      expect(query.statusCode).toBe(400);
      expect(query.json().error.details).toEqual([{ field: 'query.unknown', message: 'is not a known field' }]);
    } finally {
      await app.close();
    }
  });
});
