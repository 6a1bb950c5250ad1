import type { AdapterOptions } from './http.ts';
import type { PlatformAdapter } from './types.ts';

export function threadsAdapter(_options: AdapterOptions, _now: () => Date): PlatformAdapter {
  throw new Error('threads adapter: not written yet');
}
