/** The insert of new comments of any accounts: one statement, whose text is the same for any number of them. */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.ts';
import { executeSqlShaped } from '../../db/prepared.ts';
import { comments } from './tables.ts';

/** A comment row as it is inserted, without its account's columns (CommentOfAccount adds them). */
export type CommentInsert = Pick<
  typeof comments.$inferSelect,
  | 'id'
  | 'postId'
  | 'platformCommentId'
  | 'platformPostId'
  | 'platformParentId'
  | 'authorId'
  | 'authorUsername'
  | 'text'
  | 'commentedAt'
  | 'timeConfirmed'
  | 'hidden'
  | 'rating'
  | 'editedAt'
  | 'byAccount'
>;

/** The account a comment is inserted for: its row's owner, profile, account and platform. */
export interface InsertAccount {
  id: string;
  ownerId: string;
  profileId: string;
  platform: string;
}

/** A comment row with the account it is inserted for. */
export interface CommentOfAccount {
  account: InsertAccount;
  row: CommentInsert;
}

const p = (name: string) => sql.placeholder(name);

/**
 * The insert, its rows as arrays (a column each) in the order given: a statement with a row of
 * values each had a text for each count of rows, which PostgreSQL planned at every call, and
 * building it cost the process more than the insert took to run. A comment already stored is
 * left as it is, or, where `hidden_read_at` is given, takes the hidden state read then unless it
 * changed since.
 */
function insertSql(takeHidden: boolean): SQL {
  const conflict = takeHidden
    ? sql`on conflict (account_id, platform_comment_id) do update
        set hidden = excluded.hidden, updated_at = excluded.updated_at
        where ${comments.hidden} is distinct from excluded.hidden and ${comments.updatedAt} < ${p('hidden_read_at')}::timestamptz
        returning id, xmax = 0 as inserted`
    : sql`on conflict (account_id, platform_comment_id) do nothing returning id, true as inserted`;
  return sql`insert into ${comments} (id, owner_id, profile_id, account_id, post_id, platform, platform_comment_id,
      platform_post_id, platform_parent_id, author_id, author_username, text, commented_at, time_confirmed, hidden,
      rating, edited_at, by_account, created_at, updated_at)
    select c.id, c.owner_id, c.profile_id, c.account_id, c.post_id,
      c.platform, c.platform_comment_id, c.platform_post_id, c.platform_parent_id, c.author_id,
      c.author_username, c.text, c.commented_at, c.time_confirmed, c.hidden, c.rating, c.edited_at, c.by_account,
      ${p('at')}::timestamptz, ${p('at')}::timestamptz
    from unnest(${p('ids')}::text[], ${p('owner_ids')}::text[], ${p('profile_ids')}::text[], ${p('account_ids')}::text[],
      ${p('platforms')}::text[], ${p('post_ids')}::text[], ${p('platform_comment_ids')}::text[],
      ${p('platform_post_ids')}::text[], ${p('platform_parent_ids')}::text[], ${p('author_ids')}::text[],
      ${p('author_usernames')}::text[], ${p('texts')}::text[], ${p('commented_at')}::timestamptz[],
      ${p('time_confirmed')}::boolean[], ${p('hidden')}::boolean[], ${p('ratings')}::integer[],
      ${p('edited_at')}::timestamptz[], ${p('by_account')}::boolean[])
      with ordinality as c(id, owner_id, profile_id, account_id, platform, post_id, platform_comment_id,
        platform_post_id, platform_parent_id, author_id, author_username, text, commented_at, time_confirmed,
        hidden, rating, edited_at, by_account, n)
    order by c.n
    ${conflict}`;
}

/**
 * Inserts `rows`, each at most once per account (a platform comment already stored for its
 * account is not stored again), in their order; answers the ids of the rows inserted now.
 */
export async function insertComments(
  tx: Tx,
  rows: readonly CommentOfAccount[],
  at: Date,
  hiddenReadAt: Date | undefined,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const takeHidden = hiddenReadAt !== undefined;
  const column = <T>(value: (row: CommentInsert, account: InsertAccount) => T) =>
    rows.map(({ row, account }) => value(row, account));
  const answered = await executeSqlShaped<{ id: string; inserted: boolean }>(
    tx,
    takeHidden ? 'insert comments, taking the hidden state' : 'insert comments',
    () => insertSql(takeHidden),
    {
      at: at.toISOString(),
      ids: column((r) => r.id),
      owner_ids: column((_, a) => a.ownerId),
      profile_ids: column((_, a) => a.profileId),
      account_ids: column((_, a) => a.id),
      platforms: column((_, a) => a.platform),
      post_ids: column((r) => r.postId),
      platform_comment_ids: column((r) => r.platformCommentId),
      platform_post_ids: column((r) => r.platformPostId),
      platform_parent_ids: column((r) => r.platformParentId),
      author_ids: column((r) => r.authorId),
      author_usernames: column((r) => r.authorUsername),
      texts: column((r) => r.text),
      commented_at: column((r) => r.commentedAt.toISOString()),
      time_confirmed: column((r) => r.timeConfirmed),
      hidden: column((r) => r.hidden),
      ratings: column((r) => r.rating),
      edited_at: column((r) => r.editedAt?.toISOString() ?? null),
      by_account: column((r) => r.byAccount),
      ...(takeHidden ? { hidden_read_at: hiddenReadAt.toISOString() } : {}),
    },
  );
  return new Set(answered.flatMap((row) => (row.inserted ? [row.id] : [])));
}
