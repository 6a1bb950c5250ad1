/**
 * Serves the owner's dashboard: a single-page app built by Vite into `dist/dashboard`
 * (`npm run build`, which `npm ci` runs) that works only through the public /v1 API. Every
 * path under /dashboard that is not a built file answers the app's page, so its own URLs
 * survive a reload.
 *
 * The policy allows scripts, styles and requests from this origin only: nothing inline,
 * no third party, no framing of the dashboard (it may frame this origin's own pages, for
 * the preview of the hosted connect page).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Where `npm run build` puts the dashboard, from this file in src/web or dist/web. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../dist/dashboard', import.meta.url));

function securityHeaders(reply: FastifyReply): void {
  reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
}

export function dashboardPages(root = DASHBOARD_DIR): FastifyPluginAsync {
  return async (app) => {
    const built = fs.existsSync(path.join(root, 'index.html'));
    if (!built) {
      app.log.warn({ root }, 'the dashboard is not built: run `npm run build` (npm ci does)');
      const notBuilt = async (_request: unknown, reply: FastifyReply) => {
        securityHeaders(reply);
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The dashboard is not built. Run `npm run build` (npm ci runs it), then restart.');
      };
      app.get('/dashboard', { schema: { hide: true } }, notBuilt);
      app.get('/dashboard/*', { schema: { hide: true } }, notBuilt);
      return;
    }

    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/dashboard')) securityHeaders(reply);
    });
    await app.register(fastifyStatic, {
      root,
      prefix: '/dashboard/',
      // The app's page is answered below, for every path of the app; the built assets come from here.
      index: false,
      wildcard: false,
      setHeaders: (res, filePath) => {
        // Vite names built assets by their content, so they never change under a name; the
        // page that names them is asked for afresh each time, so a new build shows at once.
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-store',
        );
      },
    });

    const page = async (_request: unknown, reply: FastifyReply) => reply.sendFile('index.html');
    app.get('/dashboard', { schema: { hide: true } }, page);
    app.get('/dashboard/*', { schema: { hide: true } }, async (request, reply) => {
      // A missing built asset is a 404, not the app's page in its place.
      if (request.url.startsWith('/dashboard/assets/')) return reply.code(404).type('text/plain').send('Not found');
      return await page(request, reply);
    });
  };
}
