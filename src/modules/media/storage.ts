/**
 * Where media files live, behind the small interface an S3-compatible store will also meet:
 * put a finished file, read it (or a byte range of it) as a stream, delete it. Today: files
 * under `DATA_DIR/media`, which every process of one installation shares.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface MediaStorage {
  /** Moves the finished local file at `localPath` in under `key`, replacing what was there. */
  put(key: string, localPath: string): Promise<void>;
  /** The bytes stored under `key`, or the `range` of them. */
  read(key: string, range?: ByteRange): Readable;
  /** Deletes what is stored under `key`; nothing there is fine (deletion steps run again). */
  delete(key: string): Promise<void>;
  /** A new path for a scratch file on the storage's file system, so `put` can be a rename. */
  scratchFile(): Promise<string>;
}

/** A key is made by this module only (`<media id>/<variant>`); anything else is a bug, never a path. */
const KEY = /^[a-z]+_[0-9a-z]{26}\/[a-z]+$/;

function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a media storage key: ${JSON.stringify(key)}`);
  return key;
}

export function localMediaStorage(root: string): MediaStorage {
  const files = path.join(root, 'files');
  const incoming = path.join(root, 'incoming');
  const fileOf = (key: string) => path.join(files, checkedKey(key));
  return {
    async put(key, localPath) {
      const target = fileOf(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(localPath, target);
    },
    read(key, range) {
      return createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {});
    },
    async delete(key) {
      const target = fileOf(key);
      await fs.rm(target, { force: true });
      // The medium's folder goes with its last file.
      await fs.rmdir(path.dirname(target)).catch(() => {});
    },
    async scratchFile() {
      await fs.mkdir(incoming, { recursive: true });
      return path.join(incoming, randomUUID());
    },
  };
}

const stores = new Map<string, MediaStorage>();

/** The media storage of an installation (DATA_DIR/media). */
export function mediaStorage(config: Pick<Config, 'dataDir'>): MediaStorage {
  const root = path.join(config.dataDir, 'media');
  let store = stores.get(root);
  if (!store) {
    store = localMediaStorage(root);
    stores.set(root, store);
  }
  return store;
}
