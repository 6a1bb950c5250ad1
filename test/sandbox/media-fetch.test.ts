/** How the sandbox platforms fetch a post's media: the answer must be 200, and the bytes decide the type. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchMedia, sniffFormat } from '../../src/sandbox/media-fetch.ts';
import { videoFile } from '../helpers/media-files.ts';
import { MEDIA_FILES, type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

let media: MediaServer;
beforeAll(async () => {
  media = await startMediaServer({
    '/seven.mp4': { type: 'video/mp4', body: await videoFile('mp4', { seconds: 7 }) },
    '/seven.mov': { type: 'video/quicktime', body: await videoFile('mov', { seconds: 7 }) },
  });
});
afterAll(() => media.close());

const bytes = (path: string) => (MEDIA_FILES[path] as { body: Buffer }).body;

describe('sniffFormat', () => {
  it('tells JPEG, PNG, MP4 and QuickTime from their first bytes, and nothing from a web page', () => {
    expect(sniffFormat(bytes('/photo.jpg'))).toBe('jpeg');
    expect(sniffFormat(bytes('/photo.png'))).toBe('png');
    expect(sniffFormat(bytes('/clip.mp4'))).toBe('mp4');
    expect(sniffFormat(bytes('/clip.mov'))).toBe('mov');
    expect(sniffFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(sniffFormat(Buffer.from('GIF89a'))).toBe('gif');
    expect(sniffFormat(bytes('/page.jpg'))).toBeNull();
    expect(sniffFormat(Buffer.alloc(0))).toBeNull();
  });
});

describe('fetchMedia', () => {
  it('a file of an accepted kind: its format and size', async () => {
    expect(await fetchMedia(media.url('/photo.jpg'), ['jpeg'], 1_000_000)).toEqual({
      ok: true,
      format: 'jpeg',
      bytes: bytes('/photo.jpg').length,
    });
  });

  it('the name does not count: a PNG named .mp4 is a PNG', async () => {
    expect(await fetchMedia(media.url('/png.mp4'), ['mp4', 'mov'], 1_000_000)).toMatchObject({
      ok: false,
      reason: 'format',
    });
  });

  it("asked for it, a video's duration read from the bytes fetched; null when they do not tell it", async () => {
    for (const [path, format] of [
      ['/seven.mp4', 'mp4'],
      ['/seven.mov', 'mov'],
    ] as const) {
      expect(await fetchMedia(media.url(path), ['mp4', 'mov'], 10_000_000, { readDuration: true })).toEqual({
        ok: true,
        format,
        bytes: expect.any(Number),
        durationSeconds: 7,
      });
    }
    // An MP4's first bytes with nothing after them: a video, of no length anyone can read.
    expect(await fetchMedia(media.url('/clip.mp4'), ['mp4'], 1_000_000, { readDuration: true })).toEqual({
      ok: true,
      format: 'mp4',
      bytes: bytes('/clip.mp4').length,
      durationSeconds: null,
    });
  });

  it('not 200, no answer, too large', async () => {
    expect(await fetchMedia(media.url('/missing.jpg'), ['jpeg'], 1_000_000)).toMatchObject({
      ok: false,
      reason: 'status',
      detail: 'HTTP 404',
    });
    const closed = media.url('/photo.jpg').replace(/:\d+\//, ':9/');
    expect(await fetchMedia(closed, ['jpeg'], 1_000_000)).toMatchObject({ ok: false, reason: 'unreachable' });
    expect(await fetchMedia(media.url('/photo.jpg'), ['jpeg'], 100)).toMatchObject({ ok: false, reason: 'size' });
  });
});
