/**
 * A real S3-compatible server for tests (s3rver, over HTTP on 127.0.0.1, files in a folder of
 * its own), and a plain S3 client of the test's own to see what it holds. s3rver refuses an
 * access key other than its own, but does not check signatures.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's only key pair. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

export interface S3Server {
  /** `http://127.0.0.1:N` */
  endpoint: string;
  bucket: string;
  /** The settings that point the service at this server. */
  settings: Record<string, string>;
  /** Every key in the bucket under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** The stored object's type and length, or null when there is none. */
  head(key: string): Promise<{ contentType: string | undefined; length: number | undefined } | null>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'switchboard-media'): Promise<S3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
  });
  return {
    endpoint,
    bucket,
    settings: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
    },
    async keys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async head(key) {
      try {
        const found = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { contentType: found.ContentType, length: found.ContentLength };
      } catch (error) {
        if ((error as { name?: string }).name === 'NotFound') return null;
        throw error;
      }
    },
    async close() {
      client.destroy();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
