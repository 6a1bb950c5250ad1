import { makeWorkerUtils } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';

let t: TestApp;
let owner: TestOwner;

beforeAll(async () => {
  // With a route that fails unexpectedly, to see what a user gets from an internal error.
  t = await startTestApp({ BODY_LIMIT_BYTES: '2048' }, (app) =>
    app.get('/v1/__boom', async () => {
      throw new Error('database password is hunter2');
    }),
  );
  owner = await t.createOwner();
});
afterAll(() => t.close());

describe('the error shape and status codes every route shares', () => {
  it('answers malformed JSON with 400 invalid_json and a Request-Id', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: { ...auth(owner.key), 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('invalid_json');
    expect(body.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(res.headers['request-id']).toBe(body.error.request_id);
  });

  it('lists every failing field under details for a schema violation', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(owner.key),
      payload: { name: 42, nickname: 'x', external_id: 'has space' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation_failed');
    const fields = body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['body.external_id', 'body.name', 'body.nickname']);
  });

  it('reports a missing required field by name', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(owner.key), payload: {} });
    expect(res.json().error.details).toEqual([{ field: 'body.name', message: 'is required' }]);
  });

  it('does not coerce JSON types: a number is not a name', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(owner.key),
      payload: { name: 7 },
    });
    expect(res.statusCode).toBe(400);
  });

  it('rejects names with control characters or only spaces, including NUL', async () => {
    for (const name of ['a\u0000b', '   ', 'line\nbreak']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/profiles',
        headers: auth(owner.key),
        payload: { name },
      });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
    }
  });

  it('validates query parameters: limit out of range and a forged cursor', async () => {
    const tooBig = await t.app.inject({ method: 'GET', url: '/v1/profiles?limit=101', headers: auth(owner.key) });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().error.details[0].field).toBe('query.limit');
    const forged = await t.app.inject({ method: 'GET', url: '/v1/profiles?cursor=bm9wZQ', headers: auth(owner.key) });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toMatchObject({ code: 'validation_failed', details: [{ field: 'query.cursor' }] });
  });

  it('rejects query parameters a route does not take', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${owner.defaultProfileId}?expand=everything`,
      headers: auth(owner.key),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'query.expand', message: 'is not a known field' }]);
  });

  it('answers an unknown route with 404 not_found', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here', headers: auth(owner.key) });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    expect(res.headers['request-id']).toBeTruthy();
  });

  it('answers a path that is not valid percent-encoding with 400 invalid_url in the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/profiles/%E0%A4%A', headers: auth(owner.key) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_url', request_id: res.headers['request-id'] });
  });

  it('answers an over-long path parameter with 400 validation_failed', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${'a'.repeat(3000)}`,
      headers: auth(owner.key),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe('path.id');
  });

  it('answers a body over the limit with 413 payload_too_large', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(owner.key),
      payload: { name: 'x'.repeat(4000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('answers a non-JSON body with 415 unsupported_media_type', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: { ...auth(owner.key), 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
  });

  it('answers an unexpected failure with 500 internal_error and no internals', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/__boom', headers: auth(owner.key) });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal_error');
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('at ');
  });

  it('puts a Request-Id on successful responses too, different per request', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/healthz' });
    const b = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(a.headers['request-id']).toMatch(/^req_/);
    expect(a.headers['request-id']).not.toBe(b.headers['request-id']);
  });
});

describe('metrics', () => {
  it('counts requests by route pattern and status at /metrics, in the Prometheus format', async () => {
    await t.app.inject({ method: 'GET', url: `/v1/profiles/${owner.defaultProfileId}`, headers: auth(owner.key) });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/v1\/profiles\/:id",status="200"\} [1-9]/);
    // Patterns, not URLs: no series per resource id.
    expect(res.body).not.toContain(owner.defaultProfileId);
  });

  it('shows the job queue by task and state, and how long the oldest waiting job has been due', async () => {
    // No worker runs in this app: the jobs stay where they are put.
    const utils = await makeWorkerUtils({ pgPool: t.database.pool });
    try {
      await utils.addJob('schedule_comment_polls', {}, { runAt: new Date(Date.now() - 90_000) });
      await utils.addJob('schedule_comment_polls', {});
      await utils.addJob('schedule_comment_polls', {}, { runAt: new Date(Date.now() + 3_600_000) });
    } finally {
      await utils.release();
    }
    const { body } = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(body).toContain('# TYPE switchboard_jobs gauge');
    expect(body).toContain('switchboard_jobs{task="schedule_comment_polls",state="waiting"} 2');
    expect(body).toContain('switchboard_jobs{task="schedule_comment_polls",state="scheduled"} 1');
    expect(body).toContain('switchboard_jobs{task="schedule_comment_polls",state="running"} 0');
    // Every task has its series, with zeros when it has no job.
    expect(body).toContain('switchboard_jobs{task="publish_target",state="waiting"} 0');
    const lag = /^switchboard_job_lag_seconds\{task="schedule_comment_polls"\} ([\d.e+-]+)$/m.exec(body);
    expect(Number(lag?.[1])).toBeGreaterThanOrEqual(90);
    expect(Number(lag?.[1])).toBeLessThan(3600);
    expect(body).toContain('switchboard_job_lag_seconds{task="publish_target"} 0');
  });
});

describe('health', () => {
  it('answers /healthz and /readyz when the database is migrated', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });
});
