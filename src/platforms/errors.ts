/** The refusals an adapter makes itself, before or instead of a platform's answer. */
import { type Platform, PlatformError } from './types.ts';

/** The caller asked for something the platform's rules refuse (a bad argument, a post breaking a rule). */
export function invalidRequest(platform: Platform, message: string): PlatformError {
  return new PlatformError('invalid_request', `${platform}: ${message}`, { platform });
}

/** What the platform (or its API for ordinary apps) cannot do at all. */
export function unsupported(platform: Platform, what: string): PlatformError {
  return new PlatformError('unsupported', `${platform} does not support ${what}`, { platform });
}
