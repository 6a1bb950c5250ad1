/** How the sandbox platforms fetch a post's media: the answer must be 200, and the bytes decide the type. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchMedia, sniffFormat } from '../../src/sandbox/media-fetch.ts';
import { MEDIA_FILES, type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

let media: MediaServer;
beforeAll(async () => {
  media = await startMediaServer();
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
