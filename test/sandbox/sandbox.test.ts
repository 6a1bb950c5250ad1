import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { elementsOf, tagsOf, textsOf } from '../helpers/html.ts';

let service: TestApp;

beforeAll(async () => {
  service = await startTestApp();
});
afterAll(() => service.close());

const DIALOG = '/sandbox/www.instagram.com/oauth/authorize';

function dialogQuery(overrides: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  const values: Record<string, string | undefined> = {
    client_id: 'app-1',
    redirect_uri: 'https://app.example.test/cb',
    scope: 'instagram_business_basic,instagram_business_manage_comments',
    response_type: 'code',
    state: 'st',
    ...overrides,
  };
  for (const [name, value] of Object.entries(values)) if (value !== undefined) params.set(name, value);
  return `${DIALOG}?${params}`;
}

async function control(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const response = await service.app.inject({ method, url: `/sandbox/_control${url}`, payload: payload as object });
  return { status: response.statusCode, body: response.json() };
}

describe('the sandbox mounted on the service', () => {
  it('serves the permission page with a strict CSP, one ticked box per scope, and every value escaped', async () => {
    const response = await service.app.inject({
      method: 'GET',
      url: dialogQuery({ client_id: '<script>alert(1)</script>', state: '"><img src=x>' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = response.body;
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(textsOf(html, 'code')).toEqual(['<script>alert(1)</script>']);
    expect(tagsOf(html).filter((tag) => tag === 'script' || tag === 'img')).toEqual([]);
    const hidden = Object.fromEntries(
      elementsOf(html, 'input')
        .map((input) => input.attributes)
        .filter((input) => input.type === 'hidden')
        .map((input) => [input.name, input.value]),
    );
    expect(hidden).toMatchObject({ client_id: '<script>alert(1)</script>', state: '"><img src=x>' });
    expect(html.match(/type="checkbox" name="granted" value="[^"]+" checked/g)).toHaveLength(2);
    expect(html).toContain('<input type="text" id="username" name="username"');
    expect(html).toContain('value="cancel"');
  });

  it('refuses a dialog without a usable redirect_uri or scope with an error page, not a redirect', async () => {
    for (const overrides of [{ redirect_uri: undefined }, { redirect_uri: 'javascript:alert(1)' }, { scope: '' }]) {
      const response = await service.app.inject({ method: 'GET', url: dialogQuery(overrides) });
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
    }
  });

  it('asks again for a bad username instead of redirecting', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: DIALOG,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        client_id: 'app-1',
        redirect_uri: 'https://app.example.test/cb',
        scope: 'instagram_business_basic',
        username: 'not a name!',
        decision: 'allow',
      }).toString(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.body).toContain('role="alert"');
  });

  it('is not part of the service API document', async () => {
    const doc = (await service.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/sandbox'))).toEqual([]);
  });

  it('is not mounted when the platforms are live', async () => {
    const live = await startTestApp({ INSTAGRAM_CLIENT_ID: 'id', INSTAGRAM_CLIENT_SECRET: 'secret' });
    try {
      expect((await live.app.inject({ method: 'GET', url: dialogQuery() })).statusCode).toBe(404);
    } finally {
      await live.close();
    }
  });
});

describe('the control API', () => {
  it('makes a user with posts, and describes it', async () => {
    const made = await control('POST', '/users', { platform: 'facebook', username: 'control_fb' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ platform: 'facebook', kind: 'user', username: 'control_fb' });
    expect(made.body.posts).toHaveLength(3);
    expect(made.body.pages.map((p: { username: string }) => p.username)).toEqual([
      'control_fb.page1',
      'control_fb.page2',
      'control_fb.page3',
    ]);
    const page = await control('GET', '/users/facebook/control_fb.page1');
    expect(page.body).toMatchObject({ kind: 'page', parent_id: made.body.id });
    expect(page.body.instagram_business_account_id).toMatch(/^\d{17}$/);
    expect((await control('POST', '/users', { platform: 'facebook', username: 'control_fb' })).body.id).toBe(
      made.body.id,
    );
  });

  it("makes a private user, and sets or clears an existing user's privacy only when told", async () => {
    const made = await control('POST', '/users', { platform: 'tiktok', username: 'control_private', private: true });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ username: 'control_private', private: true });
    expect((await control('GET', '/users/tiktok/control_private')).body.private).toBe(true);
    // Named again without `private`: as it was.
    expect((await control('POST', '/users', { platform: 'tiktok', username: 'control_private' })).body.private).toBe(
      true,
    );
    const opened = await control('POST', '/users', { platform: 'tiktok', username: 'control_private', private: false });
    expect(opened.body).toMatchObject({ id: made.body.id, private: false });
    expect((await control('GET', '/users/tiktok/control_private')).body.private).toBe(false);
    // A user is public unless made private.
    expect((await control('POST', '/users', { platform: 'tiktok', username: 'control_public' })).body.private).toBe(
      false,
    );
    const vague = await control('POST', '/users', { platform: 'tiktok', username: 'control_private', private: 'yes' });
    expect(vague.status).toBe(400);
  });

  it('answers 400 invalid_request for a malformed body and 404 not_found for an unknown user, post or comment', async () => {
    await control('POST', '/users', { platform: 'threads', username: 'control_th' });
    const bad = [
      ['POST', '/users', { platform: 'myspace', username: 'x' }],
      ['POST', '/users', { platform: 'threads', username: 'x', extra: 1 }],
      ['POST', '/faults', { platform: 'threads', username: 'control_th', error: 'custom' }],
      ['POST', '/faults', { platform: 'threads', username: 'control_th', error: 'bored' }],
      ['POST', '/throttle', { platform: 'threads', username: 'control_th', seconds: -1 }],
      ['PUT', '/insights', { platform: 'threads', username: 'control_th', metric: 'views', values: [] }],
      ['PUT', '/settings/instagram_token_shape', { value: 'round' }],
      ['PUT', '/settings/container_processing_seconds', { value: -1 }],
      ['PUT', '/settings/container_processing_seconds', { value: '5' }],
      ['PUT', '/settings/container_processing_seconds', { value: 1.5 }],
      ['PUT', '/settings/tiktok_client_audit', { value: 'maybe' }],
      ['PUT', '/settings/tiktok_max_video_post_duration_sec', { value: 59.5 }],
      ['PUT', '/settings/tiktok_max_video_post_duration_sec', { value: '600' }],
      ['PUT', '/settings/instagram_publish_quota', { value: -1 }],
      ['PUT', '/settings/threads_publish_quota', { value: 2.5 }],
      ['POST', '/testers', { platform: 'instagram', username: 'control_th', client_id: 'app' }],
      ['POST', '/users', { platform: 'threads', username: 'control_th_id', id: '0123' }],
      // Malformed paths are refused like bodies, never looked up (a NUL would fail the query).
      ['GET', '/users/threads/control%00th', undefined],
      ['GET', '/activity/threads/control%00th', undefined],
      ['GET', '/activity/myspace/control_th', undefined],
      ['PUT', '/settings/container%00processing_seconds', { value: 5 }],
    ] as const;
    for (const [method, url, payload] of bad) {
      const answer = await control(method, url, payload);
      expect(answer.status, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
    }
    const missing = [
      ['GET', '/users/threads/nobody', undefined],
      ['POST', '/tokens/expire', { platform: 'threads', username: 'nobody' }],
      [
        'POST',
        '/comments',
        { platform: 'threads', username: 'control_th', post_id: '1', author_username: 'a', text: 'b' },
      ],
      [
        'POST',
        '/comments',
        { platform: 'threads', username: 'control_th', parent_id: '1', author_username: 'a', text: 'b' },
      ],
      ['PUT', '/settings/unknown', { value: 'x' }],
    ] as const;
    for (const [method, url, payload] of missing) {
      const answer = await control(method, url, payload);
      expect(answer.status, url).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
  });

  it('refuses figures for a metric the platform does not have at that level, naming the ones it has', async () => {
    await control('POST', '/users', { platform: 'instagram', username: 'control_names' });
    const user = (await control('GET', '/users/instagram/control_names')).body;
    const values = [{ day: '2026-01-01', value: 1 }];
    // Instagram says `saves` for an account and `saved` for a medium.
    const account = await control('PUT', '/insights', {
      platform: 'instagram',
      username: 'control_names',
      metric: 'saved',
      values,
    });
    expect(account.status).toBe(400);
    expect(account.body.error.code).toBe('invalid_request');
    expect(account.body.error.message).toContain('instagram has no account metric saved');
    expect(account.body.error.message).toContain('saves');
    const post = await control('PUT', '/insights', {
      platform: 'instagram',
      username: 'control_names',
      post_id: user.posts[0].id,
      metric: 'saves',
      values,
    });
    expect(post.status).toBe(400);
    expect(post.body.error.message).toContain('saved');
    const tiktok = await control('PUT', '/insights', {
      platform: 'tiktok',
      username: 'nobody',
      metric: 'views',
      values,
    });
    expect(tiktok.status).toBe(400);
    expect(tiktok.body.error.message).toBe('tiktok has no account insights');
    for (const [metric, post_id] of [
      ['saves', undefined],
      ['saved', user.posts[0].id],
    ]) {
      const accepted = await control('PUT', '/insights', {
        platform: 'instagram',
        username: 'control_names',
        metric,
        values,
        ...(post_id === undefined ? {} : { post_id }),
      });
      expect(accepted.status, metric).toBe(200);
    }
  });

  it('keeps "no data" (null) apart from 0 when figures are set', async () => {
    await control('POST', '/users', { platform: 'instagram', username: 'control_ig' });
    const set = await control('PUT', '/insights', {
      platform: 'instagram',
      username: 'control_ig',
      metric: 'reach',
      values: [
        { day: '2026-01-01', value: null },
        { day: '2026-01-02', value: 0 },
      ],
    });
    expect(set).toEqual({ status: 200, body: { updated: 2 } });
    const [row] = (
      await service.database.pool.query(
        `select array_agg(value order by day) as v from sandbox.insights where metric = 'reach'`,
      )
    ).rows as { v: (string | null)[] }[];
    expect(row?.v).toEqual([null, '0']);

    // A day given twice in one request takes its last value, as when the values were set one by one.
    const twice = await control('PUT', '/insights', {
      platform: 'instagram',
      username: 'control_ig',
      metric: 'reach',
      values: [
        { day: '2026-01-03', value: 5 },
        { day: '2026-01-03', value: 6 },
      ],
    });
    expect(twice).toEqual({ status: 200, body: { updated: 2 } });
    const [again] = (
      await service.database.pool.query(
        `select value from sandbox.insights where metric = 'reach' and day = '2026-01-03'`,
      )
    ).rows as { value: string }[];
    expect(again?.value).toBe('6');
  });
});
