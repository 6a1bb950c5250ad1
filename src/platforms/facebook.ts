import type { AdapterOptions } from './http.ts';
import type { PlatformAdapter } from './types.ts';

export function facebookAdapter(_options: AdapterOptions, _now: () => Date): PlatformAdapter {
  throw new Error('facebook adapter: not written yet');
}
