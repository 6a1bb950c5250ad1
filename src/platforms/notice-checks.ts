/** What checking a platform's signed notice shares: comparing signatures, reading the body once trusted. */
import { timingSafeEqual } from 'node:crypto';
import { invalidRequest } from './errors.ts';
import { parseJson } from './http.ts';
import type { Platform } from './types.ts';

/** Whether two signatures are the same bytes, compared in constant time. */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A notice's JSON; a body that is not JSON is refused as the platform's notices never are. */
export function noticeJson(platform: Platform, text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    throw invalidRequest(platform, 'the notice is not JSON');
  }
}
