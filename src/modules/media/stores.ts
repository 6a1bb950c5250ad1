/** The media storage the settings name: the S3-compatible store when S3_BUCKET is set, else DATA_DIR/media. */
import path from 'node:path';
import type { FileStoreSettings } from '../../config.ts';
import { localMediaStorage } from './local-storage.ts';
import { s3MediaStorage } from './s3-storage.ts';
import type { MediaStorage } from './storage.ts';

const stores = new Map<string, MediaStorage>();

/** One storage per setting, shared by every part of the process that reads or writes media. */
export function mediaStorage(settings: FileStoreSettings): MediaStorage {
  const root = path.join(settings.dataDir, 'media');
  const id = JSON.stringify([root, settings.s3 ?? null]);
  let store = stores.get(id);
  if (!store) {
    store = settings.s3 ? s3MediaStorage(settings.s3, path.join(root, 'incoming')) : localMediaStorage(root);
    stores.set(id, store);
  }
  return store;
}

/** Resolves when the media store the settings name can be used; `/readyz` asks. */
export async function checkMediaStorage(settings: FileStoreSettings): Promise<void> {
  await mediaStorage(settings).check();
}
