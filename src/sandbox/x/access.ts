/** What every X route shares: its name, its scopes, its error dialect. */
import type { CallOptions } from '../caller.ts';
import { xDialect } from './answers.ts';

export const platform = 'x';

export const SCOPE = {
  tweetRead: 'tweet.read',
  tweetWrite: 'tweet.write',
  usersRead: 'users.read',
  offlineAccess: 'offline.access',
  mediaWrite: 'media.write',
};

/** The call options of a store's clock. */
export function callOptions(now: () => Date, publishing = false): CallOptions {
  return { platform, errors: xDialect(now), ...(publishing ? { publishing: true } : {}) };
}
