import type { AdapterOptions } from './http.ts';
import type { PlatformAdapter } from './types.ts';

export function tiktokAdapter(_options: AdapterOptions, _now: () => Date): PlatformAdapter {
  throw new Error('tiktok adapter: not written yet');
}
