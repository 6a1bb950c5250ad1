/**
 * The S3-compatible store failing under the service: mid-upload, and while it stays down. A
 * client gets 503 in the error shape with Retry-After, nothing half-made is kept, readiness
 * says so, and all of it comes back by itself when the store does.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMedia, mediaFetchUrl } from '../../src/modules/media/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { multipartUpload } from '../helpers/media-files.ts';
import { type S3Server, startS3Server } from '../helpers/s3-server.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

let s3: S3Server;
let store: TcpProxy;
let t: TestApp;
let owner: TestOwner;
/** A PNG of noise, about 190 KB, which no compression makes small. */
let file: Buffer;

beforeAll(async () => {
  s3 = await startS3Server();
  const target = new URL(s3.endpoint);
  store = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
  t = await startTestApp({ ...s3.settings, S3_ENDPOINT: `http://${store.address}` });
  owner = await t.createOwner();
  file = await sharp(randomBytes(250 * 250 * 3), { raw: { width: 250, height: 250, channels: 3 } })
    .png()
    .toBuffer();
});

afterAll(async () => {
  await t.close();
  await store.close();
  await s3.close();
});

async function upload() {
  const body = multipartUpload(file, { filename: 'noise.png', contentType: 'image/png' });
  return await t.app.inject({
    method: 'POST',
    url: '/v1/media',
    headers: { ...auth(owner.key), ...body.headers },
    payload: body.payload,
  });
}

async function mediaList() {
  return (await t.app.inject({ method: 'GET', url: '/v1/media', headers: auth(owner.key) })).json().data;
}

async function filesUnderDataDir(): Promise<string[]> {
  const names = await fs.readdir(path.join(t.config.dataDir, 'media'), { recursive: true }).catch(() => []);
  const files: string[] = [];
  for (const name of names) {
    if ((await fs.stat(path.join(t.config.dataDir, 'media', name))).isFile()) files.push(name);
  }
  return files;
}

describe('the media store going down', () => {
  it('answers an upload cut off mid-way with 503 storage_unavailable, and keeps nothing of it', async () => {
    expect(file.length).toBeGreaterThan(150_000);
    const cut = store.downAfter(40_000);
    const res = await upload();
    await cut;
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({
      error: {
        code: 'storage_unavailable',
        message: 'The media store cannot be reached right now. Retry in a few seconds.',
        request_id: res.headers['request-id'],
      },
    });
    expect(await mediaList()).toEqual([]);
    expect(await filesUnderDataDir()).toEqual([]);
    expect(await s3.keys()).toEqual([]);
  });

  it('is not ready while the store is down, and is again once it is back', async () => {
    const down = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json().error).toMatchObject({
      code: 'not_ready',
      message: 'The media store is unreachable or cannot be written to.',
    });
    await store.up();
    const up = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({ status: 'ready' });
  });

  it('takes the same upload once the store is back, and serves it', async () => {
    const res = await upload();
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    expect(await s3.keys()).toEqual([`media/${id}/original`]);
    expect((await mediaList()).map((m: { id: string }) => m.id)).toEqual([id]);
    expect(await filesUnderDataDir()).toEqual([]);
  });

  it('answers a request that reads a stored file with 503 while the store is down', async () => {
    const [listed] = await mediaList();
    const [item] = await findMedia(t.database.db, owner.ownerId, [listed.id]);
    if (!item) throw new Error('the uploaded medium is not found');
    // The service's own signed URL, which streams the file from the store.
    const url = new URL(await mediaFetchUrl({ db: t.database.db, secretKey: t.secretKey, config: t.config }, item));
    await store.down();
    try {
      const res = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expect([res.statusCode, res.json().error?.code]).toEqual([503, 'storage_unavailable']);
    } finally {
      await store.up();
    }
    const again = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload).toEqual(file);
  });
});
