import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { imageFile, videoFile } from '../helpers/media-files.ts';
import { media } from '../helpers/tables.ts';

/** `POST /v1/media` with `{"url"}`, against a real HTTP server on this machine. */

let t: TestApp;
let strict: TestApp;
let owner: TestOwner;
let server: http.Server;
let origin: string;
let png: Buffer;
let mov: Buffer;
/** Bytes the endless answer sent before the service hung up. */
let endlessSent = 0;

beforeAll(async () => {
  png = await imageFile('png', { width: 33, height: 22 });
  mov = await videoFile('mov', { width: 480, height: 270, seconds: 7 });
  server = http.createServer((req, res) => {
    switch (req.url) {
      case '/picture':
        // A misleading Content-Type: the type is read from the bytes.
        res.writeHead(200, { 'content-type': 'text/plain' }).end(png);
        return;
      case '/clip':
        res.writeHead(200, { 'content-type': 'video/quicktime' }).end(mov);
        return;
      case '/text':
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end('not an image at all, though it says so');
        return;
      case '/moved':
        res.writeHead(302, { location: '/picture' }).end();
        return;
      case '/declared-huge':
        // More than the video limit (1 GiB by default), so refused before any of it is read.
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(2 * 1024 ** 3) });
        res.write(mov.subarray(0, 100));
        return;
      case '/endless': {
        // A PNG that never ends, with no Content-Length: only the streaming cap stops it.
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png.subarray(0, 64));
        const chunk = Buffer.alloc(16 * 1024, 1);
        const more = () => {
          while (!res.destroyed && res.write(chunk)) endlessSent += chunk.length;
          if (!res.destroyed) res.once('drain', more);
        };
        more();
        return;
      }
      default:
        res.writeHead(404).end('no such file');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', MEDIA_MAX_IMAGE_BYTES: '100000' });
  strict = await startTestApp();
  owner = await t.createOwner();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  await strict.close();
});

async function importUrl(app: TestApp, key: string, url: string) {
  return await app.app.inject({ method: 'POST', url: '/v1/media', headers: auth(key), payload: { url } });
}

async function nothingStored(app: TestApp, ownerId: string) {
  const { eq } = await import('drizzle-orm');
  expect(await app.database.db.select().from(media).where(eq(media.ownerId, ownerId))).toEqual([]);
  const files = await fs.readdir(path.join(app.config.dataDir, 'media', 'files')).catch(() => []);
  const incoming = await fs.readdir(path.join(app.config.dataDir, 'media', 'incoming')).catch(() => []);
  return { files, incoming };
}

describe('POST /v1/media with a URL', () => {
  it('fetches and stores an image and a video, typed by their bytes', async () => {
    const picture = await importUrl(t, owner.key, `${origin}/picture`);
    expect(picture.statusCode).toBe(201);
    expect(picture.json()).toMatchObject({
      profile_id: owner.defaultProfileId,
      type: 'image',
      mime_type: 'image/png',
      size_bytes: png.length,
      width: 33,
      height: 22,
      duration_seconds: null,
    });
    const clip = await importUrl(t, owner.key, `${origin}/clip`);
    expect(clip.statusCode).toBe(201);
    expect(clip.json()).toMatchObject({
      type: 'video',
      mime_type: 'video/quicktime',
      size_bytes: mov.length,
      width: 480,
      height: 270,
      duration_seconds: 7,
    });
  });

  it('refuses private, loopback and plain-http URLs unless WEBHOOK_ALLOW_PRIVATE_URLS is on', async () => {
    const other = await strict.createOwner();
    for (const [url, reason] of [
      [`${origin}/picture`, 'https'],
      ['https://private.example.test/picture.png', '10.0.0.5'],
      ['https://loopback.example.test/picture.png', '127.0.0.1'],
      ['https://127.0.0.1/picture.png', '127.0.0.1'],
    ] as const) {
      const res = await importUrl(strict, other.key, url);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('invalid_media_url');
      expect(res.json().error.details.reason).toContain(reason);
    }
    expect((await nothingStored(strict, other.ownerId)).files).toEqual([]);
  });

  it('answers 422 media_fetch_failed when the server does not answer 2xx (redirects are not followed)', async () => {
    const other = await t.createOwner();
    const missing = await importUrl(t, other.key, `${origin}/missing`);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error).toMatchObject({
      code: 'media_fetch_failed',
      details: { reason: 'the server answered 404' },
    });
    const moved = await importUrl(t, other.key, `${origin}/moved`);
    expect(moved.statusCode).toBe(422);
    expect(moved.json().error.details.reason).toBe('the server answered 302; redirects are not followed');
    const nobody = await importUrl(t, other.key, 'http://127.0.0.1:9/picture');
    expect(nobody.statusCode).toBe(422);
    expect(nobody.json().error.details.reason).toBe('connection refused');
    await nothingStored(t, other.ownerId);
  });

  it('cuts off an answer at the size limit while it streams (413), keeping nothing', async () => {
    const other = await t.createOwner();
    const endless = await importUrl(t, other.key, `${origin}/endless`);
    expect(endless.statusCode).toBe(413);
    expect(endless.json().error).toMatchObject({ code: 'media_too_large', details: { limit_bytes: 100_000 } });
    // The service stopped reading soon after the limit, not at the end of a file that has none.
    expect(endlessSent).toBeLessThan(10 * 1024 * 1024);
    const declared = await importUrl(t, other.key, `${origin}/declared-huge`);
    expect(declared.statusCode).toBe(413);
    expect(declared.json().error.code).toBe('media_too_large');
    expect(await nothingStored(t, other.ownerId)).toEqual({ files: expect.any(Array), incoming: [] });
  });

  it('answers 415 for bytes of another type, whatever the server calls them', async () => {
    const other = await t.createOwner();
    const res = await importUrl(t, other.key, `${origin}/text`);
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
    await nothingStored(t, other.ownerId);
  });

  it('answers 400 for a body that is neither a URL nor an upload', async () => {
    for (const payload of [{}, { url: 5 }, { url: 'https://hooks.example.test/a.png', extra: true }]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/media', headers: auth(owner.key), payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
  });
});
