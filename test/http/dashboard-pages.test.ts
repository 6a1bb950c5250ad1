/**
 * How the service serves the dashboard's files (`npm run build` puts them in dist/dashboard):
 * the app's page for every path of the app, under a policy without inline script; built
 * assets cached for good; a missing asset a 404; and a plain 503 before the build.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardPages } from '../../src/web/dashboard.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t.close();
});

const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; font-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

describe('the dashboard files', () => {
  it("answers the app's page for every path of the app, never cached, under the dashboard's policy", async () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/profiles', '/dashboard/posts/post_123?view=week']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toBe(POLICY);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain('<div id="app"></div>');
      // Scripts and styles are files of this origin: nothing inline for the policy to allow.
      expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(res.body).not.toContain('<style');
    }
  });

  it('serves the built assets for good, and a missing one as a 404', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard' });
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const res = await t.app.inject({ method: 'GET', url: script ?? '' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toBe(POLICY);
    const missing = await t.app.inject({ method: 'GET', url: '/dashboard/assets/nothing-here.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('says to build it when it is not built', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-no-dashboard-'));
    const app = Fastify({ logger: false });
    try {
      await app.register(dashboardPages(empty));
      const res = await app.inject({ method: 'GET', url: '/dashboard/profiles' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toBe('The dashboard is not built. Run `npm run build` (npm ci runs it), then restart.');
    } finally {
      await app.close();
      await fs.rm(empty, { recursive: true, force: true });
    }
  });
});
