import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { ApiError } from '../../src/http/errors.ts';
import { findMedia, mediaFetchUrl, registerMediaUseCheck } from '../../src/modules/media/index.ts';
import { completeProfileDeletion } from '../../src/modules/profiles/service.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { imageFile, multipartUpload, videoFile } from '../helpers/media-files.ts';
import { type S3Server, startS3Server } from '../helpers/s3-server.ts';
import { media } from '../helpers/tables.ts';

// Registered before the app installs the modules, as the posts module's check will be.
const inUse = new Set<string>();
registerMediaUseCheck(async (_tx, item) =>
  inUse.has(item.id) ? new ApiError(409, 'media_in_use', 'A waiting post uses it.') : null,
);

let t: TestApp;
let owner: TestOwner;
let s3: S3Server | undefined;

afterEach(() => resetClock());

async function upload(file: Buffer, headers: Record<string, string> = auth(owner.key), options = {}) {
  const body = multipartUpload(file, options);
  return await t.app.inject({
    method: 'POST',
    url: '/v1/media',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

/** The files stored (`<media id>/<variant>`): in the S3 store's bucket under `media/`, or under DATA_DIR/media. */
async function storedFiles(): Promise<string[]> {
  if (s3) return (await s3.keys('media/')).map((key) => key.slice('media/'.length));
  return await localFiles();
}

async function localFiles(): Promise<string[]> {
  const root = path.join(t.config.dataDir, 'media', 'files');
  const found = await fs.readdir(root, { recursive: true }).catch(() => []);
  const files: string[] = [];
  for (const name of found) if ((await fs.stat(path.join(root, name))).isFile()) files.push(name);
  return files.sort();
}

async function newProfile(name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(owner.key), payload: { name } });
  return res.json().id;
}

describe.each([
  { store: 'DATA_DIR/media', useS3: false },
  { store: 'an S3-compatible store (S3_*)', useS3: true },
])('media kept in $store', ({ useS3 }) => {
  beforeAll(async () => {
    s3 = useS3 ? await startS3Server() : undefined;
    t = await startTestApp(
      {
        MEDIA_MAX_IMAGE_BYTES: '200000',
        MEDIA_MAX_VIDEO_BYTES: '300000',
        MEDIA_MAX_DOCUMENT_BYTES: '100000',
        ...s3?.settings,
      },
      undefined,
      { listen: true },
    );
    owner = await t.createOwner();
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
  });

  if (useS3) {
    it('keeps no file of its own under DATA_DIR, and stores each with its type', async () => {
      const file = await imageFile('png');
      const id = (await upload(file)).json().id;
      // Neither the file nor its scratch copy: every process must find it in the store.
      const underDataDir = await fs.readdir(path.join(t.config.dataDir, 'media'), { recursive: true }).catch(() => []);
      for (const name of underDataDir) {
        expect((await fs.stat(path.join(t.config.dataDir, 'media', name))).isFile(), name).toBe(false);
      }
      expect(await s3?.head(`media/${id}/original`)).toEqual({ contentType: 'image/png', length: file.length });
    });
  }

  describe('POST /v1/media (upload)', () => {
    it('stores each accepted type with its dimensions, read from the bytes', async () => {
      const cases = [
        {
          file: await imageFile('jpeg', { width: 40, height: 30 }),
          mime: 'image/jpeg',
          type: 'image',
          w: 40,
          h: 30,
          d: null,
        },
        {
          file: await imageFile('png', { width: 41, height: 31 }),
          mime: 'image/png',
          type: 'image',
          w: 41,
          h: 31,
          d: null,
        },
        {
          file: await imageFile('webp', { width: 42, height: 32 }),
          mime: 'image/webp',
          type: 'image',
          w: 42,
          h: 32,
          d: null,
        },
        {
          file: await imageFile('gif', { width: 43, height: 33 }),
          mime: 'image/gif',
          type: 'image',
          w: 43,
          h: 33,
          d: null,
        },
        {
          file: await videoFile('mp4', { width: 320, height: 240, seconds: 3 }),
          mime: 'video/mp4',
          type: 'video',
          w: 320,
          h: 240,
          d: 3,
        },
        {
          file: await videoFile('mov', { width: 640, height: 360, seconds: 5 }),
          mime: 'video/quicktime',
          type: 'video',
          w: 640,
          h: 360,
          d: 5,
        },
      ];
      for (const c of cases) {
        const res = await upload(c.file);
        expect(res.statusCode).toBe(201);
        const body = res.json();
        expect(body).toEqual({
          id: expect.stringMatching(/^media_[0-9a-z]{26}$/),
          profile_id: owner.defaultProfileId,
          type: c.type,
          mime_type: c.mime,
          size_bytes: c.file.length,
          width: c.w,
          height: c.h,
          duration_seconds: c.d,
          created_at: expect.any(String),
        });
        expect((await t.app.inject({ url: `/v1/media/${body.id}`, headers: auth(owner.key) })).json()).toEqual(body);
      }
    });

    it('reads the type from the bytes, not from the name or the declared type', async () => {
      const res = await upload(await imageFile('png'), auth(owner.key), {
        filename: 'clip.mp4',
        contentType: 'video/mp4',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ type: 'image', mime_type: 'image/png' });
    });

    it('refuses other types with 415 unsupported_media_type and stores nothing', async () => {
      const before = { rows: await t.database.db.select().from(media), files: await storedFiles() };
      const others = [
        Buffer.from('just some text, named like a picture'),
        // A TIFF: an image type none of the platforms takes.
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
          .tiff()
          .toBuffer(),
        Buffer.alloc(0),
      ];
      for (const file of others) {
        const res = await upload(file, auth(owner.key), { filename: 'photo.jpg', contentType: 'image/jpeg' });
        expect(res.statusCode).toBe(415);
        expect(res.json().error.code).toBe('unsupported_media_type');
      }
      expect({ rows: await t.database.db.select().from(media), files: await storedFiles() }).toEqual(before);
    });

    it("refuses a file over its type's limit with 413 media_too_large and stores nothing", async () => {
      const before = await storedFiles();
      // 250 000 bytes: over the image limit of this app (200 000), under the video limit (300 000).
      const bigPng = await sharp(randomBytes(400 * 400 * 3), { raw: { width: 400, height: 400, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(bigPng.length).toBeGreaterThan(200_000);
      const res = await upload(bigPng);
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toMatchObject({ code: 'media_too_large', details: { limit_bytes: 200_000 } });
      const bigVideo = await videoFile('mp4', { seconds: 3 });
      const padded = Buffer.concat([bigVideo, Buffer.alloc(310_000)]);
      const video = await upload(padded);
      expect(video.statusCode).toBe(413);
      expect(video.json().error).toMatchObject({ code: 'media_too_large', details: { limit_bytes: 300_000 } });
      // A PDF: over the document limit of this app (100 000 bytes), under the others.
      const bigPdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(120_000, 0x20), Buffer.from('\n%%EOF\n')]);
      const pdf = await upload(bigPdf, auth(owner.key), { filename: 'deck.pdf', contentType: 'application/pdf' });
      expect(pdf.statusCode).toBe(413);
      expect(pdf.json().error).toMatchObject({ code: 'media_too_large', details: { limit_bytes: 100_000 } });
      expect(await storedFiles()).toEqual(before);
    });

    it('takes a PDF as a document: no size in pixels, no length', async () => {
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
      const res = await upload(pdf, auth(owner.key), { filename: 'deck.pdf', contentType: 'application/pdf' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        type: 'document',
        mime_type: 'application/pdf',
        size_bytes: pdf.length,
        width: null,
        height: null,
        duration_seconds: null,
      });
    });

    it('answers 400 invalid_multipart for a multipart body that breaks off, storing nothing', async () => {
      const before = await storedFiles();
      const body = multipartUpload(await imageFile('jpeg'));
      const cut = body.payload.subarray(0, body.payload.length - 30);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/media',
        headers: { ...auth(owner.key), ...body.headers },
        payload: cut,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_multipart');
      expect(await storedFiles()).toEqual(before);
    });

    it('refuses an oversized upload over real HTTP with 413 while the client is still sending', async () => {
      // 2 MB of a PNG's worth of bytes: far over this app's image limit of 200 000.
      const png = await imageFile('png');
      const body = multipartUpload(Buffer.concat([png, Buffer.alloc(2_000_000)]));
      const res = await fetch(`${t.url}/v1/media`, {
        method: 'POST',
        headers: { ...auth(owner.key), ...body.headers },
        body: body.payload,
      }).catch((error: unknown) => error);
      // The service may answer before the client has sent everything; either way nothing is kept.
      if (res instanceof Response) {
        expect(res.status).toBe(413);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('media_too_large');
      }
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    });

    it('answers 400 when the file is not in a part named "file"', async () => {
      const res = await upload(await imageFile('jpeg'), auth(owner.key), { field: 'image' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'validation_failed',
        details: [{ field: 'body.image', message: expect.stringContaining('"file"') }],
      });
    });

    it('puts the medium in the profile of the key or the header, else the default profile', async () => {
      const client = await newProfile('Media client');
      const profileKey = await t.createProfileKey(owner.ownerId, client);
      const file = await imageFile('jpeg');
      expect((await upload(file, auth(profileKey))).json().profile_id).toBe(client);
      expect((await upload(file, auth(owner.key, client))).json().profile_id).toBe(client);
      expect((await upload(file, auth(owner.key))).json().profile_id).toBe(owner.defaultProfileId);
    });

    it('answers a retry with the same Idempotency-Key with the first answer, storing one medium', async () => {
      const file = await imageFile('jpeg');
      const headers = { ...auth(owner.key), 'idempotency-key': 'upload-once-1' };
      const first = await upload(file, headers);
      const again = await upload(file, headers);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expect(await t.database.db.select().from(media).where(eq(media.id, first.json().id))).toHaveLength(1);
    });
  });

  describe('GET and DELETE /v1/media', () => {
    it('lists newest first in pages, scoped to the profile of the key', async () => {
      const client = await newProfile('Listed client');
      const key = await t.createProfileKey(owner.ownerId, client);
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) ids.push((await upload(await imageFile('jpeg'), auth(key))).json().id);
      const first = (await t.app.inject({ url: '/v1/media?limit=2', headers: auth(key) })).json();
      expect(first.data.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[1]]);
      const second = (
        await t.app.inject({ url: `/v1/media?limit=2&cursor=${first.next_cursor}`, headers: auth(key) })
      ).json();
      expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
      const all = (await t.app.inject({ url: '/v1/media?limit=100', headers: auth(owner.key) })).json();
      expect(all.data.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(ids));
    });

    it("answers 404 media_not_found for another owner's medium", async () => {
      const id = (await upload(await imageFile('jpeg'))).json().id;
      const other = await t.createOwner();
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await t.app.inject({ method, url: `/v1/media/${id}`, headers: auth(other.key) });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('media_not_found');
      }
      expect(await findMedia(t.database.db, owner.ownerId, [id])).toHaveLength(1);
    });

    it('deletes a medium and its file (204), and its URL stops working', async () => {
      const png = await item(await imageFile('png'));
      const id = png.id;
      const url = await mediaFetchUrl(urlContext(), png, { format: 'jpeg' });
      expect((await fetch(url)).status).toBe(200);
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/media/${id}`, headers: auth(owner.key) });
      expect(res.statusCode).toBe(204);
      expect((await t.app.inject({ url: `/v1/media/${id}`, headers: auth(owner.key) })).statusCode).toBe(404);
      expect((await fetch(url)).status).toBe(404);
      expect((await storedFiles()).filter((f) => f.startsWith(id))).toEqual([]);
    });

    it('refuses to delete a medium a registered check objects to, changing nothing', async () => {
      const id = (await upload(await imageFile('jpeg'))).json().id;
      inUse.add(id);
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/media/${id}`, headers: auth(owner.key) });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('media_in_use');
      expect((await t.app.inject({ url: `/v1/media/${id}`, headers: auth(owner.key) })).statusCode).toBe(200);
      expect((await storedFiles()).filter((f) => f.startsWith(id))).toEqual([`${id}/original`]);
      inUse.delete(id);
    });
  });

  describe('findMedia', () => {
    it("answers in the order asked, leaving out unknown ids and other owners' media", async () => {
      const a = (await upload(await imageFile('jpeg'))).json().id;
      const b = (await upload(await videoFile('mp4'))).json().id;
      const other = await t.createOwner();
      const body = multipartUpload(await imageFile('jpeg'));
      const foreign = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/media',
          headers: { ...auth(other.key), ...body.headers },
          payload: body.payload,
        })
      ).json().id;
      const found = await findMedia(t.database.db, owner.ownerId, [b, 'media_01jd0000000000000000000000', foreign, a]);
      expect(found.map((m) => m.id)).toEqual([b, a]);
      expect(found[0]).toEqual({
        id: b,
        ownerId: owner.ownerId,
        profileId: owner.defaultProfileId,
        type: 'video',
        mimeType: 'video/mp4',
        sizeBytes: expect.any(Number),
        width: 320,
        height: 240,
        durationSeconds: 3,
      });
    });
  });

  function urlContext() {
    return { db: t.database.db, secretKey: t.secretKey, config: t.config };
  }

  async function item(file: Buffer, headers = auth(owner.key)) {
    const id = (await upload(file, headers)).json().id;
    const [found] = await findMedia(t.database.db, owner.ownerId, [id]);
    if (!found) throw new Error('uploaded medium not found');
    return found;
  }

  describe('signed media URLs', () => {
    it('serve the file under PUBLIC_URL without an API key, with its type and length', async () => {
      const file = await videoFile('mp4', { seconds: 4 });
      const url = await mediaFetchUrl(urlContext(), await item(file));
      expect(url.startsWith(`${t.url}/media/`)).toBe(true);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('content-length')).toBe(String(file.length));
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(file);
    });

    it('serve a byte range with 206, and an unsatisfiable one with 416', async () => {
      const file = await videoFile('mov', { seconds: 2 });
      const url = await mediaFetchUrl(urlContext(), await item(file));
      const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${file.length}`);
      expect(part.headers.get('content-length')).toBe('100');
      expect(Buffer.from(await part.arrayBuffer())).toEqual(file.subarray(100, 200));
      const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
      expect(tail.status).toBe(206);
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(file.subarray(file.length - 10));
      const outside = await fetch(url, { headers: { range: `bytes=${file.length + 5}-` } });
      expect(outside.status).toBe(416);
      expect(outside.headers.get('content-range')).toBe(`bytes */${file.length}`);
    });

    it('serve each file its own bytes, one after another and side by side, whole and in ranges', async () => {
      // Of three lengths, so a file is served after longer ones, from memory a longer one was read into.
      const files = [await videoFile('mp4', { seconds: 4 }), await imageFile('png'), await imageFile('jpeg')];
      const urls = await Promise.all(files.map(async (file) => await mediaFetchUrl(urlContext(), await item(file))));
      expect(new Set(files.map((file) => file.length)).size).toBe(3);
      const get = async (url: string, headers: Record<string, string> = {}) => {
        const res = await fetch(url, { headers });
        expect(res.status).toBe(headers.range === undefined ? 200 : 206);
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(res.headers.get('content-length')).toBe(String(bytes.length));
        return bytes;
      };
      for (let round = 0; round < 2; round++) {
        for (const [i, url] of urls.entries()) expect(await get(url)).toEqual(files[i]);
      }
      const together = await Promise.all([...urls, ...urls, ...urls].map(async (url) => await get(url)));
      together.forEach((bytes, i) => {
        expect(bytes).toEqual(files[i % files.length]);
      });
      const [video = Buffer.alloc(0)] = files;
      expect(await get(urls[0] ?? '', { range: 'bytes=10-29' })).toEqual(video.subarray(10, 30));
      expect(await get(urls[0] ?? '')).toEqual(video);
    });

    if (!useS3) {
      it('answer 500 internal_error for a file shorter on disk than its row, and serve the others on', async () => {
        const damaged = await item(await imageFile('png'));
        const url = await mediaFetchUrl(urlContext(), damaged);
        const file = await imageFile('jpeg');
        const other = await mediaFetchUrl(urlContext(), await item(file));
        await fs.truncate(path.join(t.config.dataDir, 'media', 'files', damaged.id, 'original'), 10);
        const res = await fetch(url);
        expect(res.status).toBe(500);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('internal_error');
        expect(Buffer.from(await (await fetch(other)).arrayBuffer())).toEqual(file);
      });
    }

    it('answer 404 once expired, or with a changed signature, path or expiry', async () => {
      const url = new URL(await mediaFetchUrl(urlContext(), await item(await imageFile('jpeg'))));
      const withParam = (name: string, value: string) => {
        const changed = new URL(url);
        changed.searchParams.set(name, value);
        return changed;
      };
      // A signature with its first character changed (its last ones may already read "AA", and
      // the very last carries padding bits that do not change the bytes).
      const signature = url.searchParams.get('signature') ?? '';
      const changed = [
        withParam('signature', `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`),
        withParam('expires', String(Number(url.searchParams.get('expires')) + 3600)),
        new URL(url.href.replace('/original.jpg', '/original.png')),
        new URL(url.href.replace('/original.jpg', '/jpeg.jpg')),
      ];
      for (const bad of changed) {
        const res = await fetch(bad);
        expect(res.status).toBe(404);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('media_file_not_found');
      }
      expect((await fetch(url)).status).toBe(200);
      // MEDIA_URL_TTL_SECONDS defaults to 24 hours.
      advanceClock(24 * 3600 * 1000 + 1000);
      expect((await fetch(url)).status).toBe(404);
    });

    it('give a JPEG of a PNG, WebP or GIF image (made once), and the original of a JPEG', async () => {
      for (const format of ['png', 'webp', 'gif'] as const) {
        const original = await item(await imageFile(format, { width: 50, height: 20, transparent: true }));
        const url = await mediaFetchUrl(urlContext(), original, { format: 'jpeg' });
        expect(url).toMatch(/\/media\/media_[0-9a-z]{26}\/jpeg\.jpg\?expires=\d+&signature=/);
        const res = await fetch(url);
        expect(res.headers.get('content-type')).toBe('image/jpeg');
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(res.headers.get('content-length')).toBe(String(bytes.length));
        expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 50, height: 20 });
        const files = (await storedFiles()).filter((f) => f.startsWith(original.id));
        expect(files).toEqual([`${original.id}/jpeg`, `${original.id}/original`]);
        // Asked again, the stored JPEG is served as it is.
        expect(
          Buffer.from(
            await (await fetch(await mediaFetchUrl(urlContext(), original, { format: 'jpeg' }))).arrayBuffer(),
          ),
        ).toEqual(bytes);
      }
      const jpeg = await item(await imageFile('jpeg'));
      expect(await mediaFetchUrl(urlContext(), jpeg, { format: 'jpeg' })).toMatch(/\/original\.jpg\?/);
    });
  });

  if (useS3) {
    it('hand platforms a presigned URL of the store with S3_PRESIGNED_URLS, valid for MEDIA_URL_TTL_SECONDS', async () => {
      const store = t.config.s3;
      if (!store || !s3) throw new Error('the S3 store is not set');
      const presigning = { ...urlContext(), config: { ...t.config, s3: { ...store, presignedUrls: true } } };
      const file = await videoFile('mp4', { seconds: 2 });
      const video = await item(file);
      const url = new URL(await mediaFetchUrl(presigning, video));
      expect(`${url.origin}${url.pathname}`).toBe(`${s3.endpoint}/${s3.bucket}/media/${video.id}/original`);
      // MEDIA_URL_TTL_SECONDS defaults to 24 hours.
      expect(url.searchParams.get('X-Amz-Expires')).toBe('86400');
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(file);
      // Signed (AWS Signature Version 4) with the store's key pair; the store refuses another key.
      expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
      const otherKey = new URL(url);
      otherKey.searchParams.set(
        'X-Amz-Credential',
        `ANOTHER${otherKey.searchParams.get('X-Amz-Credential')?.slice(6)}`,
      );
      expect((await fetch(otherKey)).status).toBe(403);
      // The JPEG of a PNG is made, stored beside the original, and presigned the same way.
      const png = await item(await imageFile('png', { width: 40, height: 30 }));
      const jpeg = await fetch(await mediaFetchUrl(presigning, png, { format: 'jpeg' }));
      expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
      expect(await sharp(Buffer.from(await jpeg.arrayBuffer())).metadata()).toMatchObject({
        format: 'jpeg',
        width: 40,
        height: 30,
      });
    });
  }

  describe('profile deletion', () => {
    it("deletes the profile's media rows and files", async () => {
      const client = await newProfile('Deleted client');
      const png = await item(await imageFile('png'), auth(owner.key, client));
      const ids = [png.id, (await upload(await videoFile('mp4'), auth(owner.key, client))).json().id];
      const kept = (await upload(await imageFile('jpeg'))).json().id;
      await mediaFetchUrl(urlContext(), png, { format: 'jpeg' });
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${client}`, headers: auth(owner.key) });
      expect(res.statusCode).toBe(202);
      // Gone for callers at once.
      expect((await t.app.inject({ url: `/v1/media/${ids[0]}`, headers: auth(owner.key) })).statusCode).toBe(404);
      expect(await completeProfileDeletion(t.deletionContext(), client)).toBe('deleted');
      expect(await t.database.db.select().from(media).where(eq(media.profileId, client))).toEqual([]);
      const files = await storedFiles();
      for (const id of ids) expect(files.filter((f) => f.startsWith(id))).toEqual([]);
      expect(files).toContain(`${kept}/original`);
    });
  });
});
