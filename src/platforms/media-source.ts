/**
 * Reading the service's own media file for a platform that takes no media by URL (X, Pinterest's
 * video, Bluesky): the file is fetched from its signed URL, every failure to reach it a passing
 * one (`failed`), so the step is tried again, and its size held to the platform's limit as it
 * streams, never read whole first.
 */
import { type Dispatcher, request } from 'undici';
import type { PlatformError } from './types.ts';

export interface MediaSourceOptions {
  dispatcher?: Dispatcher | undefined;
  timeoutMs: number;
  /** Bytes `first` to `last` only (answered 206), rather than the whole file (200). */
  range?: { first: number; last: number };
  /** Why the file cannot be read, as the platform's error (`transient`: tried again). */
  failed: (why: string) => PlatformError;
}

/** The medium's file opened for reading: its headers, and its bytes as they stream. */
export async function openMedia(url: string, options: MediaSourceOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, timeoutMs, range, failed } = options;
  let source: Dispatcher.ResponseData;
  try {
    source = await request(url, {
      signal: AbortSignal.timeout(timeoutMs),
      ...(range === undefined ? {} : { headers: { range: `bytes=${range.first}-${range.last}` } }),
      ...(dispatcher ? { dispatcher } : {}),
    });
  } catch (error) {
    throw failed((error as Error).message);
  }
  if (source.statusCode !== (range === undefined ? 200 : 206)) {
    await source.body.dump();
    throw failed(`the media answered HTTP ${source.statusCode}`);
  }
  return source;
}

/** The file's media type as its host answers it, without parameters; null where none is given. */
export function mediaTypeOf(source: Dispatcher.ResponseData): string | null {
  const type = source.headers['content-type'];
  return typeof type === 'string' ? (type.split(';')[0]?.trim() ?? null) : null;
}

/** The file's bytes as they stream, refused with `tooLarge` as soon as more than `maxBytes` have come. */
export async function* capped(
  source: Dispatcher.ResponseData,
  maxBytes: number,
  tooLarge: () => PlatformError,
): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of source.body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      source.body.destroy();
      throw tooLarge();
    }
    yield chunk as Buffer;
  }
}

/**
 * The medium's bytes (or the range asked) and its type, refused with `tooLarge` as soon as more
 * than `maxBytes` have come.
 */
export async function readMedia(
  url: string,
  options: MediaSourceOptions & { maxBytes: number; tooLarge: () => PlatformError },
): Promise<{ bytes: Buffer; type: string | null }> {
  const source = await openMedia(url, options);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of capped(source, options.maxBytes, options.tooLarge)) {
    size += chunk.length;
    chunks.push(chunk);
  }
  const { range } = options;
  if (range !== undefined && size !== range.last - range.first + 1) {
    throw options.failed(`bytes ${range.first} to ${range.last} came back as ${size} bytes`);
  }
  return { bytes: Buffer.concat(chunks), type: mediaTypeOf(source) };
}
