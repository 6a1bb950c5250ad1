/**
 * Media files at real URLs for the sandbox platforms to fetch when a post's container is
 * made (tests never reach the internet): each file begins with its format's real magic
 * bytes, which is what a platform reads to tell JPEG from PNG or MP4 from MOV.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const FILLER = Buffer.alloc(2048, 0x20);

/** The files served, by path. */
export const MEDIA_FILES: Record<string, { type: string; body: Buffer }> = {
  '/photo.jpg': {
    type: 'image/jpeg',
    body: Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.from('JFIF\0'),
      FILLER,
      Buffer.from([0xff, 0xd9]),
    ]),
  },
  '/photo.png': {
    type: 'image/png',
    body: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), FILLER]),
  },
  '/clip.mp4': {
    type: 'video/mp4',
    body: Buffer.concat([Buffer.from([0x00, 0x00, 0x00, 0x18]), Buffer.from('ftypisom\0\0\x02\0isomiso2'), FILLER]),
  },
  '/clip.mov': {
    type: 'video/quicktime',
    body: Buffer.concat([Buffer.from([0x00, 0x00, 0x00, 0x14]), Buffer.from('ftypqt  \0\0\x02\0qt  '), FILLER]),
  },
  /** A web page behind an image's name: the bytes, not the name, say what it is. */
  '/page.jpg': { type: 'image/jpeg', body: Buffer.from('<!doctype html><title>Not an image</title>') },
  /** A PNG named as a video. */
  '/png.mp4': {
    type: 'video/mp4',
    body: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), FILLER]),
  },
};

export interface MediaServer {
  /** `http://127.0.0.1:N` */
  origin: string;
  /** The URL of a served file (`/photo.jpg`, also under any folder), or of a path that answers 404 (`/missing.jpg`). */
  url(path: string): string;
  /** How many times each path was fetched. */
  fetches: Map<string, number>;
  close(): Promise<void>;
}

/** Serves MEDIA_FILES, and `extra` files beside them (real videos a test made, say). */
export async function startMediaServer(
  extra: Record<string, { type: string; body: Buffer }> = {},
): Promise<MediaServer> {
  const fetches = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://media.test').pathname;
    fetches.set(path, (fetches.get(path) ?? 0) + 1);
    // Any folder serves the same files: `/videos/clip.mp4` is `/clip.mp4`.
    const name = path.slice(path.lastIndexOf('/'));
    const file = MEDIA_FILES[name] ?? extra[name];
    if (file === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // A part, as a platform fetching video in pieces asks (`Range: bytes=first-last`).
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (range !== null) {
      const [first, last] = [Number(range[1]), Math.min(Number(range[2]), file.body.length - 1)];
      const part = file.body.subarray(first, last + 1);
      response
        .writeHead(206, {
          'content-type': file.type,
          'content-length': part.length,
          'content-range': `bytes ${first}-${last}/${file.body.length}`,
        })
        .end(part);
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    fetches,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
