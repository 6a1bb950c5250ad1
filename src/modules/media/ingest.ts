/**
 * Turning an incoming byte stream (an upload part, an imported URL's body) into a stored file
 * and what the API says of it. The stream is written to a scratch file as it arrives, never
 * held whole in memory; its type is read from its first bytes, and the size limit of that
 * type cuts it off as soon as it is passed.
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer } from 'file-type';
import { ALL_FORMATS, FilePathSource, Input } from 'mediabunny';
import sharp, { type Metadata } from 'sharp';
import { ApiError } from '../../http/errors.ts';
import type { MediaStorage } from './storage.ts';

export type MediaType = 'image' | 'video' | 'document';

/** What the service takes, by the type the bytes show, and the file name extension it serves each with. */
export const ACCEPTED_TYPES = {
  'image/jpeg': { type: 'image', extension: 'jpg' },
  'image/png': { type: 'image', extension: 'png' },
  'image/webp': { type: 'image', extension: 'webp' },
  // A GIF, which X posts animated when it is alone; platforms that take none get a JPEG of it.
  'image/gif': { type: 'image', extension: 'gif' },
  'video/mp4': { type: 'video', extension: 'mp4' },
  'video/quicktime': { type: 'video', extension: 'mov' },
  // A PDF, which LinkedIn posts as a document (the platforms' catalogue says which take one).
  'application/pdf': { type: 'document', extension: 'pdf' },
} as const satisfies Record<string, { type: MediaType; extension: string }>;

export type AcceptedMimeType = keyof typeof ACCEPTED_TYPES;

export interface SizeLimits {
  mediaMaxImageBytes: number;
  mediaMaxVideoBytes: number;
  mediaMaxDocumentBytes: number;
}

/** The largest file of `type` the service takes. */
export function limitOf(limits: SizeLimits, type: MediaType): number {
  return type === 'image'
    ? limits.mediaMaxImageBytes
    : type === 'video'
      ? limits.mediaMaxVideoBytes
      : limits.mediaMaxDocumentBytes;
}

/** The largest file of any type: what an upload or a fetched URL may hold before its type is known. */
export function largestLimit(limits: SizeLimits): { type: MediaType; limit: number } {
  const types: MediaType[] = ['image', 'video', 'document'];
  return types
    .map((type) => ({ type, limit: limitOf(limits, type) }))
    .reduce((largest, next) => (next.limit > largest.limit ? next : largest));
}

export interface IngestedFile {
  /** The scratch file holding the bytes, for the caller to put into storage (or delete). */
  localPath: string;
  type: MediaType;
  mimeType: AcceptedMimeType;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
}

/** file-type reads a type from at most this many leading bytes (its documented sample size). */
const SNIFF_BYTES = 4100;

function isAccepted(mime: string): mime is AcceptedMimeType {
  return Object.hasOwn(ACCEPTED_TYPES, mime);
}

const unsupported = (what: string) =>
  new ApiError(
    415,
    'unsupported_media_type',
    `${what} Accepted: JPEG, PNG, WebP and GIF images, MP4 and MOV videos, PDF documents (the type is read from the file's bytes).`,
  );

export function tooLarge(type: MediaType, limit: number): ApiError {
  return new ApiError(
    413,
    'media_too_large',
    `The ${type} is larger than ${limit} bytes, the largest ${type} this service takes.`,
    { limit_bytes: limit },
  );
}

const unreadable = (why: string) => new ApiError(422, 'media_unreadable', `The file could not be read: ${why}.`);

async function detect(head: Buffer): Promise<AcceptedMimeType> {
  if (head.length === 0) throw unsupported('The file is empty.');
  const found = await fileTypeFromBuffer(head);
  if (!found) throw unsupported('The file is of a type this service cannot tell.');
  if (!isAccepted(found.mime)) throw unsupported(`The file is ${found.mime}.`);
  return found.mime;
}

/**
 * Reads `source` to a scratch file of `storage`, refusing it (and deleting what was written)
 * with 415 `unsupported_media_type`, 413 `media_too_large` or 422 `media_unreadable`.
 */
export async function ingest(source: Readable, storage: MediaStorage, limits: SizeLimits): Promise<IngestedFile> {
  const localPath = await storage.scratchFile();
  try {
    const { mimeType, sizeBytes } = await writeChecked(source, localPath, limits);
    const type = ACCEPTED_TYPES[mimeType].type;
    const dimensions =
      type === 'image'
        ? await imageDimensions(localPath)
        : type === 'video'
          ? await videoDimensions(localPath)
          : { width: null, height: null, durationSeconds: null };
    return { localPath, type, mimeType, sizeBytes, ...dimensions };
  } catch (error) {
    discard(source);
    await fs.rm(localPath, { force: true });
    throw error;
  }
}

/**
 * Stops reading a stream left half read. Destroying an HTTP response body makes it emit an
 * abort error; with no listener left (the pipeline has let go) that error would end the process.
 */
export function discard(stream: Readable): void {
  stream.on('error', () => {});
  stream.destroy();
}

async function writeChecked(
  source: Readable,
  localPath: string,
  limits: SizeLimits,
): Promise<{ mimeType: AcceptedMimeType; sizeBytes: number }> {
  let mimeType: AcceptedMimeType | undefined;
  let sizeBytes = 0;
  const head: Buffer[] = [];
  let headBytes = 0;
  const checkLimit = (mime: AcceptedMimeType) => {
    const type = ACCEPTED_TYPES[mime].type;
    if (sizeBytes > limitOf(limits, type)) throw tooLarge(type, limitOf(limits, type));
  };

  async function* checked(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      sizeBytes += chunk.length;
      if (mimeType !== undefined) {
        checkLimit(mimeType);
        yield chunk;
        continue;
      }
      // Held back until there are enough bytes to tell the type.
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes < SNIFF_BYTES) continue;
      const held = Buffer.concat(head);
      head.length = 0;
      mimeType = await detect(held);
      checkLimit(mimeType);
      yield held;
    }
    if (mimeType === undefined) {
      const held = Buffer.concat(head);
      mimeType = await detect(held);
      checkLimit(mimeType);
      yield held;
    }
  }

  await pipeline(source, checked, createWriteStream(localPath));
  if (mimeType === undefined) throw unsupported('The file is empty.');
  return { mimeType, sizeBytes };
}

async function imageDimensions(localPath: string): Promise<{ width: number; height: number; durationSeconds: null }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(localPath).metadata();
  } catch (error) {
    throw unreadable(error instanceof Error ? error.message : 'not a valid image');
  }
  // As displayed: an EXIF orientation of 5 to 8 swaps width and height.
  const { width, height } = metadata.autoOrient;
  if (!width || !height) throw unreadable('the image has no size');
  return { width, height, durationSeconds: null };
}

async function videoDimensions(localPath: string): Promise<{ width: number; height: number; durationSeconds: number }> {
  const input = new Input({ source: new FilePathSource(localPath), formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) throw unreadable('the file has no video track');
    const duration = await input.computeDuration();
    return { width: track.displayWidth, height: track.displayHeight, durationSeconds: duration };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw unreadable(error instanceof Error ? error.message : 'not a valid video');
  } finally {
    input.dispose();
  }
}
