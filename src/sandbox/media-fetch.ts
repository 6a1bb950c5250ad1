/**
 * The sandbox fetches the media URL of a post as the platforms do when a container is
 * made: it must answer 200 with a file of a kind the platform takes, told by its bytes
 * (never by the name or the Content-Type). The sandbox is a fake platform, so any address
 * may be fetched (the service's own, on localhost, in a demo); redirects are not followed.
 */
import { ALL_FORMATS, BufferSource, Input } from 'mediabunny';
import { request } from 'undici';

export type MediaFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'mp4' | 'mov' | 'webm';

/** `unreachable`: no answer; `status`: not 200; `format`: a kind not taken; `size`: too large; `timeout`. */
export type MediaFailure = 'unreachable' | 'status' | 'format' | 'size' | 'timeout';

export type MediaFetch =
  | {
      ok: true;
      format: MediaFormat;
      bytes: number;
      /** Asked for (`readDuration`): the video's length in seconds, null when its bytes do not tell it. */
      durationSeconds?: number | null;
    }
  | { ok: false; reason: MediaFailure; detail: string };

const FETCH_TIMEOUT_MS = 20_000;
/** Enough leading bytes to tell every format above apart. */
const SNIFF_BYTES = 32;
/**
 * The longest file whose duration is read: its bytes are kept in memory until it is read
 * (the whole file is downloaded anyway). Test and demo videos are far smaller; a longer
 * one is taken with its duration unknown, as the sandbox did before it read any.
 */
const DURATION_READ_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A video's length as the service reads it when the video is uploaded (mediabunny's
 * computeDuration), so the sandbox and the service never disagree on it; null when the
 * bytes are not a video it can read.
 */
async function videoDuration(bytes: Buffer): Promise<number | null> {
  const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
  try {
    if ((await input.getPrimaryVideoTrack()) === null) return null;
    const duration = await input.computeDuration();
    return Number.isFinite(duration) ? duration : null;
  } catch {
    return null;
  } finally {
    input.dispose();
  }
}

/** The format the file's first bytes say, or null for anything else. */
export function sniffFormat(head: Buffer): MediaFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'webp';
  }
  if (head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) return 'webm';
  // ISO base media (MP4) and QuickTime share the `ftyp` box; QuickTime's brand is `qt  `.
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') {
    return head.subarray(8, 12).toString('latin1') === 'qt  ' ? 'mov' : 'mp4';
  }
  return null;
}

/**
 * Fetches `url` whole (keeping only its first bytes, or with `readDuration` all of them up to
 * DURATION_READ_MAX_BYTES) and tells whether it is one of `accepted`, at most `maxBytes`
 * long, and with `readDuration` how long the video lasts.
 */
export async function fetchMedia(
  url: string,
  accepted: readonly MediaFormat[],
  maxBytes: number,
  options: { readDuration?: boolean } = {},
): Promise<MediaFetch> {
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, { method: 'GET', signal });
  } catch (error) {
    return signal.aborted
      ? { ok: false, reason: 'timeout', detail: `no answer within ${FETCH_TIMEOUT_MS / 1000} s` }
      : { ok: false, reason: 'unreachable', detail: (error as Error).message };
  }
  if (response.statusCode !== 200) {
    await response.body.dump().catch(() => undefined);
    return { ok: false, reason: 'status', detail: `HTTP ${response.statusCode}` };
  }
  const head: Buffer[] = [];
  let headLength = 0;
  let bytes = 0;
  let whole: Buffer[] | null = options.readDuration === true ? [] : null;
  try {
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      bytes += buffer.length;
      if (bytes > maxBytes) {
        response.body.destroy();
        return { ok: false, reason: 'size', detail: `larger than ${maxBytes} bytes` };
      }
      if (whole !== null && bytes > DURATION_READ_MAX_BYTES) whole = null;
      whole?.push(buffer);
      if (headLength < SNIFF_BYTES) {
        head.push(buffer.subarray(0, SNIFF_BYTES - headLength));
        headLength += Math.min(buffer.length, SNIFF_BYTES - headLength);
      }
    }
  } catch (error) {
    return signal.aborted
      ? { ok: false, reason: 'timeout', detail: `not read within ${FETCH_TIMEOUT_MS / 1000} s` }
      : { ok: false, reason: 'unreachable', detail: (error as Error).message };
  }
  const format = sniffFormat(Buffer.concat(head));
  if (format === null || !accepted.includes(format)) {
    return { ok: false, reason: 'format', detail: `${format ?? 'an unknown format'}; taken: ${accepted.join(', ')}` };
  }
  if (options.readDuration !== true) return { ok: true, format, bytes };
  return {
    ok: true,
    format,
    bytes,
    durationSeconds: whole === null ? null : await videoDuration(Buffer.concat(whole)),
  };
}
