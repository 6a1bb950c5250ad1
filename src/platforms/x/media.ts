/**
 * Uploading an image to X (the v2 media upload, "Upload": `POST /2/media/upload`, the file
 * base64-encoded in a JSON body with `media_category: tweet_image`): its `data.id` is what a post
 * names in `media.media_ids`. X takes no media by URL, so the service reads its own media file.
 */
import { request } from 'undici';
import { record, requiredText } from '../http.ts';
import { PlatformError } from '../types.ts';
import type { XContext } from './api.ts';

const platform = 'x';
const TRANSFER_TIMEOUT_MS = 120_000;
/** "Images: 5 MB" (the media upload's limits for an image). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The bytes and type of the service's media file at `url`, at most `maxBytes`. */
async function readMedia(
  { options }: XContext,
  url: string,
  maxBytes: number,
): Promise<{ bytes: Buffer; type: string | null }> {
  const failed = (why: string) =>
    new PlatformError('transient', `the media could not be read for X: ${why}`, { platform });
  let source: Awaited<ReturnType<typeof request>>;
  try {
    source = await request(url, {
      signal: AbortSignal.timeout(TRANSFER_TIMEOUT_MS),
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
  } catch (error) {
    throw failed((error as Error).message);
  }
  if (source.statusCode !== 200) {
    await source.body.dump();
    throw failed(`HTTP ${source.statusCode}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source.body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      throw new PlatformError('invalid_request', `x: an image is at most ${maxBytes} bytes`, { platform });
    }
    chunks.push(chunk as Buffer);
  }
  const type = source.headers['content-type'];
  return { bytes: Buffer.concat(chunks), type: typeof type === 'string' ? (type.split(';')[0] ?? null) : null };
}

/** Uploads one image: its media id. */
export async function uploadImage(context: XContext, token: string, url: string): Promise<string> {
  const { bytes, type } = await readMedia(context, url, MAX_IMAGE_BYTES);
  const answer = await context.api.call('POST', '/media/upload', token, {
    json: {
      media: bytes.toString('base64'),
      media_category: 'tweet_image',
      ...(type === null ? {} : { media_type: type }),
    },
  });
  return requiredText(platform, record(answer.data).id, 'data.id');
}
