/**
 * Where media files live, behind one small interface: put a finished file, read it (or a byte
 * range of it) as a stream, delete it. Files under `DATA_DIR/media` (local-storage.ts), which
 * every process of one installation shares, or an S3-compatible store (s3-storage.ts);
 * stores.ts picks one from the settings.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface MediaStorage {
  /** Moves the finished local file at `localPath` in under `key`, replacing what was there; the local file is gone after, whether or not it went in. */
  put(key: string, localPath: string, contentType: string): Promise<void>;
  /** The bytes stored under `key`, or the `range` of them. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Reads the bytes stored under `key` from byte `start` into `into` until it is full or the
   * bytes end; answers how many it read. A store on this machine has it, so that a file is served
   * from a buffer that is used again (file-buffers.ts); other stores' files are served from `read`.
   */
  readInto?: (key: string, into: Buffer, start: number) => Promise<number>;
  /** Deletes what is stored under `key`; nothing there is fine (deletion steps run again). */
  delete(key: string): Promise<void>;
  /** Resolves when the store can be used (its bucket answers, its folder is writable); else throws. */
  check(): Promise<void>;
  /** A new path for a scratch file on this machine, where a file is made before `put`. */
  scratchFile(): Promise<string>;
  /**
   * Where a platform may fetch `key` straight from the store for `ttlSeconds`, when the store
   * hands out such URLs (S3_PRESIGNED_URLS); otherwise the service serves the file itself.
   */
  presignedUrl?: (key: string, ttlSeconds: number) => Promise<string>;
}

/** A key is made by this module only (`<media id>/<variant>`); anything else is a bug, never a path. */
const KEY = /^[a-z]+_[0-9a-z]{26}\/[a-z]+$/;

export function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a media storage key: ${JSON.stringify(key)}`);
  return key;
}

/** Scratch files under `folder`, one new name each. */
export function scratchFiles(folder: string): () => Promise<string> {
  return async () => {
    await fs.mkdir(folder, { recursive: true });
    return path.join(folder, randomUUID());
  };
}

/**
 * Moves a finished scratch file in with `move`. Moved in or not, the scratch file is done with
 * afterwards: a failed put must not leave it behind.
 */
export async function moveScratchFile(localPath: string, move: () => Promise<void>): Promise<void> {
  try {
    await move();
  } finally {
    await fs.rm(localPath, { force: true });
  }
}
