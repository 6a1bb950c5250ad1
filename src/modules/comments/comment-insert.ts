/** The insert of an account's new comments: one statement, whose text is the same for any number of them. */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.ts';
import { executeSqlShaped } from '../../db/prepared.ts';
import { comments } from './tables.ts';

/** A comment row as it is inserted: the account's columns are the statement's own. */
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
    select c.id, ${p('owner_id')}::text, ${p('profile_id')}::text, ${p('account_id')}::text, c.post_id,
      ${p('platform')}::text, c.platform_comment_id, c.platform_post_id, c.platform_parent_id, c.author_id,
      c.author_username, c.text, c.commented_at, c.time_confirmed, c.hidden, c.rating, c.edited_at, c.by_account,
      ${p('at')}::timestamptz, ${p('at')}::timestamptz
    from unnest(${p('ids')}::text[], ${p('post_ids')}::text[], ${p('platform_comment_ids')}::text[],
      ${p('platform_post_ids')}::text[], ${p('platform_parent_ids')}::text[], ${p('author_ids')}::text[],
      ${p('author_usernames')}::text[], ${p('texts')}::text[], ${p('commented_at')}::timestamptz[],
      ${p('time_confirmed')}::boolean[], ${p('hidden')}::boolean[], ${p('ratings')}::integer[],
      ${p('edited_at')}::timestamptz[], ${p('by_account')}::boolean[])
      with ordinality as c(id, post_id, platform_comment_id, platform_post_id, platform_parent_id, author_id,
        author_username, text, commented_at, time_confirmed, hidden, rating, edited_at, by_account, n)
    order by c.n
    ${conflict}`;
}

/**
 * Inserts the account's comments `rows`, each at most once per account (a platform comment
 * already stored is not stored again), in their order; answers the ids of the rows inserted now.
 */
export async function insertComments(
  tx: Tx,
  account: { id: string; ownerId: string; profileId: string; platform: string },
  rows: readonly CommentInsert[],
  at: Date,
  hiddenReadAt: Date | undefined,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const takeHidden = hiddenReadAt !== undefined;
  const answered = await executeSqlShaped<{ id: string; inserted: boolean }>(
    tx,
    takeHidden ? 'insert comments, taking the hidden state' : 'insert comments',
    () => insertSql(takeHidden),
    {
      owner_id: account.ownerId,
      profile_id: account.profileId,
      account_id: account.id,
      platform: account.platform,
      at: at.toISOString(),
      ids: rows.map((r) => r.id),
      post_ids: rows.map((r) => r.postId),
      platform_comment_ids: rows.map((r) => r.platformCommentId),
      platform_post_ids: rows.map((r) => r.platformPostId),
      platform_parent_ids: rows.map((r) => r.platformParentId),
      author_ids: rows.map((r) => r.authorId),
      author_usernames: rows.map((r) => r.authorUsername),
      texts: rows.map((r) => r.text),
      commented_at: rows.map((r) => r.commentedAt.toISOString()),
      time_confirmed: rows.map((r) => r.timeConfirmed),
      hidden: rows.map((r) => r.hidden),
      ratings: rows.map((r) => r.rating),
      edited_at: rows.map((r) => r.editedAt?.toISOString() ?? null),
      by_account: rows.map((r) => r.byAccount),
      ...(takeHidden ? { hidden_read_at: hiddenReadAt.toISOString() } : {}),
    },
  );
  return new Set(answered.flatMap((row) => (row.inserted ? [row.id] : [])));
}
