/**
 * What a platform is handed to fetch a medium: a signed, expiring URL under the service's
 * public address, and for Instagram, which takes JPEG images only, a JPEG made of a PNG, GIF or
 * WebP image (made on first use, then kept in storage beside the original).
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/connection.ts';
import { ACCEPTED_TYPES, type AcceptedMimeType } from './ingest.ts';
import { jpegVariantSize, type MediaItem, recordJpegVariant, storageKey } from './service.ts';
import { type SignedFile, signedPath } from './signed-urls.ts';
import type { MediaStorage } from './storage.ts';
import { mediaStorage } from './stores.ts';

/** What a media URL needs: the database (for the JPEG variant), SECRET_KEY and the settings. */
export interface MediaUrlContext {
  db: Queryable;
  secretKey: Buffer;
  config: Pick<Config, 'publicUrl' | 'port' | 'dataDir' | 's3' | 'mediaUrlTtlSeconds'>;
}

/** PUBLIC_URL, else the address `npm start` prints as its own (http://localhost:PORT). */
function baseUrl(config: Pick<Config, 'publicUrl' | 'port'>): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

function extensionOf(mimeType: string): string {
  return ACCEPTED_TYPES[mimeType as AcceptedMimeType]?.extension ?? 'bin';
}

/**
 * The signed, expiring URL a platform fetches the medium at: the service's own, or the store's
 * presigned one (S3_PRESIGNED_URLS). `format: 'jpeg'` gives a JPEG of an image: the original
 * when it is one, else a JPEG converted and stored on first use.
 */
export async function mediaFetchUrl(
  context: MediaUrlContext,
  item: MediaItem,
  /**
   * `base`: the service's address the URL is for, when a browser that reached the service at
   * an address of its own opens it (a hosted page without PUBLIC_URL); PUBLIC_URL wins.
   */
  options: { format?: 'jpeg'; base?: string } = {},
): Promise<string> {
  const { secretKey, config } = context;
  const ttl = config.mediaUrlTtlSeconds;
  const storage = mediaStorage(config);
  const file: SignedFile =
    options.format === 'jpeg' && item.mimeType !== 'image/jpeg'
      ? { mediaId: item.id, variant: 'jpeg', extension: 'jpg' }
      : { mediaId: item.id, variant: 'original', extension: extensionOf(item.mimeType) };
  if (file.variant === 'jpeg') {
    if (item.type !== 'image') throw new Error(`media ${item.id} is a video; only an image has a JPEG`);
    await ensureJpeg(context.db, storage, item);
  }
  if (storage.presignedUrl) return await storage.presignedUrl(storageKey(item.id, file.variant), ttl);
  return (config.publicUrl ?? options.base ?? baseUrl(config)) + signedPath(secretKey, file, ttl);
}

/**
 * Makes the JPEG variant unless it is stored. Two callers racing both convert and the later
 * rename wins; the files are the same. Orientation is applied (the EXIF tag is not kept) and
 * transparency goes onto white, as JPEG has none.
 */
async function ensureJpeg(db: Queryable, storage: MediaStorage, item: MediaItem): Promise<void> {
  if ((await jpegVariantSize(db, item)) !== null) return;
  const scratch = await storage.scratchFile();
  try {
    await pipeline(
      await storage.read(storageKey(item.id, 'original')),
      sharp().rotate().flatten({ background: '#ffffff' }).jpeg({ quality: 90, mozjpeg: true }),
      createWriteStream(scratch),
    );
    const { size } = await fs.stat(scratch);
    await storage.put(storageKey(item.id, 'jpeg'), scratch, 'image/jpeg');
    await recordJpegVariant(db, item, size);
  } finally {
    await fs.rm(scratch, { force: true });
  }
}
