/** What Pinterest asks a user to grant, and what each action needs of it (docs/platforms.md, "Pinterest", "Scopes by action"). */
import type { ScopePolicy } from '../types.ts';

export const PINTEREST_SCOPE = {
  /** The user's account (`GET /v5/user_account`) and its analytics. */
  userAccountsRead: 'user_accounts:read',
  /** The user's public boards (`GET /v5/boards`), and a board's pins. */
  boardsRead: 'boards:read',
  /** Create Pin lists it beside the pins' scopes. */
  boardsWrite: 'boards:write',
  /** The user's public pins, and a media upload's status. */
  pinsRead: 'pins:read',
  /** Creating pins, and registering a media upload. */
  pinsWrite: 'pins:write',
} as const;

const S = PINTEREST_SCOPE;

export const PINTEREST_SCOPES: ScopePolicy = {
  requested: [S.userAccountsRead, S.boardsRead, S.boardsWrite, S.pinsRead, S.pinsWrite],
  // Without the user's account there is no account to connect.
  required: [S.userAccountsRead],
  byAction: {
    read_profile: [S.userAccountsRead],
    // Get user account analytics: user_accounts:read; Get Pin analytics: boards:read and pins:read.
    read_insights: [S.userAccountsRead, S.boardsRead, S.pinsRead],
    // Create Pin: boards:read, boards:write, pins:read, pins:write; List boards: boards:read.
    publish: [S.boardsRead, S.boardsWrite, S.pinsRead, S.pinsWrite],
  },
};
