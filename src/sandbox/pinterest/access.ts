/** What every Pinterest route shares: its name, its scopes, its error dialect. */
import type { CallOptions } from '../caller.ts';
import { pinterest } from './answers.ts';

export const platform = 'pinterest';

export const SCOPE = {
  userAccountsRead: 'user_accounts:read',
  boardsRead: 'boards:read',
  boardsWrite: 'boards:write',
  pinsRead: 'pins:read',
  pinsWrite: 'pins:write',
};

export function callOptions(publishing = false): CallOptions {
  return { platform, errors: pinterest, ...(publishing ? { publishing: true } : {}) };
}
