import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDeferred } from '../../src/http/deferred-compile.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    // validate() throws with the first problem it finds.
    await SwaggerParser.validate(structuredClone(doc));
  });

  it('documents every /v1 operation with a summary, bearer auth, and the error shape', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThanOrEqual(8);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.summary, where).toBeTruthy();
      const responses = op.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
      const unauthorized = responses['401']?.content?.['application/json']?.schema as {
        properties?: { error?: { properties?: Record<string, unknown> } };
      };
      expect(Object.keys(unauthorized?.properties?.error?.properties ?? {}), where).toEqual(
        expect.arrayContaining(['code', 'message', 'request_id']),
      );
    }
  });

  it('declares Idempotency-Key on every POST but those whose answer holds a secret shown once', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const posts = Object.entries(
      doc.paths as Record<string, { post?: { parameters?: { in: string; name: string }[] } }>,
    )
      .filter(([path, ops]) => path.startsWith('/v1/') && ops.post)
      .map(([path, ops]) => ({
        path,
        declares: (ops.post?.parameters ?? []).some((p) => p.in === 'header' && p.name === 'idempotency-key'),
      }));
    // docs/api-conventions.md, "Idempotency-Key header": the endpoints that refuse a key.
    const refusing = [
      '/v1/profiles/{id}/api-keys',
      '/v1/webhooks',
      '/v1/webhooks/{id}/rotate-secret',
      '/v1/profiles/{id}/connect-links',
      '/v1/profiles/{id}/report-links',
      '/v1/posts/{id}/approval-links',
      '/v1/accounts/{id}/reconnect-links',
      '/v1/session',
    ];
    expect(
      posts
        .filter((p) => !p.declares)
        .map((p) => p.path)
        .sort(),
    ).toEqual([...refusing].sort());
    expect(posts.filter((p) => p.declares).length).toBeGreaterThanOrEqual(12);
  });

  it('serves the interactive docs from local files', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
    expect(page.body).not.toMatch(/src="https?:\/\//);
    const script = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
  });

  it('holds request and response schemas that all compile (each is compiled at its first request)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = Object.values(doc.paths as Record<string, Record<string, unknown>>).flatMap((ops) =>
      Object.keys(ops),
    ).length;
    // Every documented operation has at least its answers' schemas; compileDeferred throws the
    // first schema that does not compile.
    expect(compileDeferred()).toBeGreaterThan(operations);
    expect(compileDeferred()).toBe(0);
  });
});
