/**
 * The user's account (`GET /v5/user_account`) and its boards (`GET /v5/boards`): each new user
 * has two boards, kept as pages of the user (a board's pins are its posts).
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { addPage, pagesOf } from '../store/accounts.ts';
import { findInsight } from '../store/insights.ts';
import { callOptions, SCOPE } from './access.ts';
import { pinterest } from './answers.ts';

/** The boards a new user is made with: their names. */
const BOARD_NAMES = ['Ideas', 'Recipes'];

export async function addBoards(store: Store, user: SandboxAccount): Promise<void> {
  for (const name of BOARD_NAMES) {
    await addPage(store, user, {
      username: `${user.username}.${name.toLowerCase()}`,
      name,
      instagramBusinessAccountId: null,
    });
  }
}

/** The board `boardId` of the user, or Pinterest's 404. */
export async function ownBoard(store: Store, user: SandboxAccount, boardId: string): Promise<SandboxAccount> {
  const board = (await pagesOf(store, user.id)).find((b) => b.id === boardId);
  if (board === undefined) throw pinterest.notFound(`board ${boardId}`);
  return board;
}

/** `page_size`: 1 to 250, 25 by default (Pinterest's paging parameters). */
export function pageSize(raw: string | undefined): number {
  if (raw === undefined) return 25;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 250) throw pinterest.badParameter('page_size must be 1 to 250');
  return n;
}

function renderBoard(board: SandboxAccount, owner: SandboxAccount) {
  return {
    id: board.id,
    name: board.name,
    description: null,
    privacy: 'PUBLIC',
    owner: { username: owner.username },
    follower_count: board.followersCount,
    created_at: board.createdAt.toISOString().slice(0, 19),
  };
}

export function accountRoutes(app: FastifyInstance, store: Store): void {
  app.get('/v5/user_account', async (request) => {
    const options = callOptions();
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.userAccountsRead);
    const user = who.account;
    // Today's follower count as `PUT /_control/insights` set it, else the user's own.
    const set = await findInsight(store, {
      accountId: user.id,
      postId: '',
      metric: 'follower_count',
      day: store.now().toISOString().slice(0, 10),
    });
    return {
      account_type: 'BUSINESS',
      id: user.id,
      username: user.username,
      business_name: user.name,
      profile_image: user.avatarUrl,
      website_url: '',
      about: '',
      follower_count: set === undefined ? user.followersCount : set.value,
      following_count: 0,
      board_count: (await pagesOf(store, user.id)).length,
    };
  });

  app.get('/v5/boards', async (request) => {
    const options = callOptions();
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.boardsRead);
    const size = pageSize(param(request, 'page_size'));
    const boards = await pagesOf(store, who.account.id);
    return { items: boards.slice(0, size).map((b) => renderBoard(b, who.account)), bookmark: null };
  });
}
