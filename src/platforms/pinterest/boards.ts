/** The user's boards (`GET /v5/boards`, a page at a time by `bookmark`): the values of a pin's `board_id`. */
import { list, record, str } from '../http.ts';
import type { AccountCredentials, OptionValue, OptionValueList } from '../types.ts';
import type { PinterestContext } from './api.ts';

/** Boards read at most: 4 pages of Pinterest's largest page size. */
const MAX_BOARDS = 1000;

export async function pinterestBoards(
  { api }: PinterestContext,
  { accessToken }: AccountCredentials,
): Promise<OptionValueList> {
  const boards: OptionValue[] = [];
  let bookmark: string | null = null;
  do {
    const page = await api.call('GET', '/boards', accessToken, {
      query: { page_size: 250, ...(bookmark === null ? {} : { bookmark }) },
    });
    for (const item of list(page.items)) {
      const board = record(item);
      const id = str(board.id);
      if (id !== null) boards.push({ value: id, label: str(board.name) ?? id });
    }
    bookmark = str(page.bookmark);
  } while (bookmark !== null && bookmark !== '' && boards.length < MAX_BOARDS);
  return { values: boards, complete: bookmark === null || bookmark === '' };
}
