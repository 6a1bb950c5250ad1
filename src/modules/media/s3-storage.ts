/**
 * Media files in an S3-compatible store (S3_*), under `media/<media id>/<variant>` in the
 * bucket. Every process of an installation reaches the same files however many machines it
 * runs on; scratch files are still made on the machine, under `scratchRoot`.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../../config.ts';
import { UnavailableError } from '../../http/errors.ts';
import { checkedKey, type MediaStorage, moveScratchFile, scratchFiles } from './storage.ts';

export function s3MediaStorage(settings: S3Settings, scratchRoot: string): MediaStorage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where S3 demands them: an upload would otherwise go as aws-chunked with a
    // checksum trailer, which several S3-compatible stores refuse or keep as part of the bytes.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that stops answering must fail the request, not hold it: a connection within 5 s,
    // and no 30 s without a byte either way once connected.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => `media/${checkedKey(key)}`;
  const storage: MediaStorage = {
    async put(key, localPath, contentType) {
      // Multipart past 5 MB a part, so a video of a gigabyte is never held in memory whole.
      const upload = new Upload({
        client,
        params: { Bucket, Key: objectKey(key), Body: createReadStream(localPath), ContentType: contentType },
      });
      await moveScratchFile(localPath, async () => {
        await upload.done().catch(storeFailure);
      });
    },
    async read(key, range) {
      const { Body } = await client
        .send(
          new GetObjectCommand({
            Bucket,
            Key: objectKey(key),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        )
        .catch(storeFailure);
      if (!(Body instanceof Readable)) throw new Error(`the store answered ${objectKey(key)} without a body`);
      return Body;
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) })).catch(storeFailure);
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket })).catch(storeFailure);
    },
    scratchFile: scratchFiles(scratchRoot),
  };
  if (settings.presignedUrls) {
    storage.presignedUrl = async (key, ttlSeconds) =>
      await getSignedUrl(client, new GetObjectCommand({ Bucket, Key: objectKey(key) }), { expiresIn: ttlSeconds });
  }
  return storage;
}

/**
 * A store that gave no answer (refused, timed out) or a server error, after the SDK's own
 * retries, is unavailable: the caller may retry later. Any other answer (403, 404) is a fault of
 * the settings or of the service and stays as it is.
 */
function storeFailure(error: unknown): never {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status === undefined || status >= 500) throw new UnavailableError('storage', { cause: error });
  throw error;
}
