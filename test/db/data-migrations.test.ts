import { readFile } from 'node:fs/promises';
import type { PoolClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { createTestDatabase } from '../helpers/database.ts';

/**
 * Migrations that fill a new column from the rows already stored: each is run on a database
 * holding rows as they were before it (the column dropped again), and what it wrote is checked.
 */

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function statementsOf(migration: string): Promise<string[]> {
  const text = await readFile(new URL(`../../src/db/migrations/${migration}.sql`, import.meta.url), 'utf8');
  return text
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The rows alone matter here, not the owners, accounts and posts they belong to (a database of
 * this test's own): the table's foreign keys are dropped.
 */
async function dropForeignKeys(client: PoolClient, table: string): Promise<void> {
  const { rows: keys } = await client.query<{ name: string }>(
    `select conname as name from pg_constraint where conrelid = $1::regclass and contype = 'f'`,
    [table],
  );
  for (const { name } of keys) await client.query(`alter table ${table} drop constraint "${name}"`);
}

describe('0025_comment_has_replies', () => {
  it('marks the comments stored with replies, and from then on every comment a reply row is written for', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('drop trigger comment_replies_mark_comment on comment_replies');
      await client.query('drop function comment_replies_mark_comment()');
      await client.query('alter table comments drop column has_replies');
      await dropForeignKeys(client, 'comments');
      for (const id of ['cmt_a', 'cmt_b', 'cmt_c', 'cmt_d']) {
        await client.query(
          `insert into comments (id, owner_id, profile_id, account_id, post_id, platform, platform_comment_id,
             platform_post_id, text, commented_at, by_account, created_at, updated_at)
           values ($1, 'own_x', 'prf_x', 'acc_x', 'pst_x', 'instagram', $1, 'p1', 'hi', now(), false, now(), now())`,
          [id],
        );
      }
      const reply = (id: string, commentId: string) =>
        client.query(
          `insert into comment_replies (id, comment_id, text, status, created_at, updated_at)
           values ($1, $2, 'thanks', 'failed', now(), now())`,
          [id, commentId],
        );
      await reply('crp_1', 'cmt_a');
      await reply('crp_2', 'cmt_a');
      await reply('crp_3', 'cmt_c');
      for (const statement of await statementsOf('0025_comment_has_replies')) await client.query(statement);
      const marked = async () =>
        (await client.query('select id, has_replies from comments order by id')).rows.map((r) => [r.id, r.has_replies]);
      expect(await marked()).toEqual([
        ['cmt_a', true],
        ['cmt_b', false],
        ['cmt_c', true],
        ['cmt_d', false],
      ]);
      // A reply written afterwards by any code (an older release, say) marks its comment too.
      await reply('crp_4', 'cmt_d');
      expect(await marked()).toEqual([
        ['cmt_a', true],
        ['cmt_b', false],
        ['cmt_c', true],
        ['cmt_d', true],
      ]);
    } finally {
      client.release();
    }
  });
});

describe('0043_comment_parent_id', () => {
  it("names each stored reply's parent, and from then on every comment written names its parent and is named by its replies", async () => {
    const client = await database.pool.connect();
    try {
      await client.query('drop trigger comments_find_parent on comments');
      await client.query('drop trigger comments_adopt_replies on comments');
      await client.query('drop trigger comments_orphan_replies on comments');
      await client.query('drop function comments_find_parent(), comments_adopt_replies(), comments_orphan_replies()');
      await client.query('drop index comments_account_parent_idx');
      await client.query('alter table comments drop column parent_id');
      await client.query('delete from comments');
      await dropForeignKeys(client, 'comments');
      // Comment `id` is platform comment `platformId` of account `account`, answering `parent` (a platform id).
      const comment = (id: string, account: string, platformId: string, parent: string | null) =>
        client.query(
          `insert into comments (id, owner_id, profile_id, account_id, post_id, platform, platform_comment_id,
             platform_parent_id, platform_post_id, text, commented_at, by_account, created_at, updated_at)
           values ($1, 'own_x', 'prf_x', $2, 'pst_x', 'instagram', $3, $4, 'p1', 'hi', now(), false, now(), now())`,
          [id, account, platformId, parent],
        );
      await comment('cmt_top', 'acc_a', '100', null);
      await comment('cmt_reply', 'acc_a', '101', '100');
      // The same platform id on another account is another comment: not this one's parent.
      await comment('cmt_other_account', 'acc_b', '102', '100');
      await comment('cmt_orphan', 'acc_a', '103', '999');
      for (const statement of await statementsOf('0043_comment_parent_id')) await client.query(statement);
      const parents = async () =>
        (await client.query('select id, parent_id from comments order by id')).rows.map((r) => [r.id, r.parent_id]);
      expect(await parents()).toEqual([
        ['cmt_orphan', null],
        ['cmt_other_account', null],
        ['cmt_reply', 'cmt_top'],
        ['cmt_top', null],
      ]);

      // Written afterwards by any code: a reply names a parent already stored, and a parent
      // stored after its reply (here the orphan's) is named by it.
      await comment('cmt_late_reply', 'acc_a', '104', '101');
      await comment('cmt_late_parent', 'acc_a', '999', null);
      expect(await parents()).toEqual([
        ['cmt_late_parent', null],
        ['cmt_late_reply', 'cmt_reply'],
        ['cmt_orphan', 'cmt_late_parent'],
        ['cmt_other_account', null],
        ['cmt_reply', 'cmt_top'],
        ['cmt_top', null],
      ]);
      // A parent deleted is named by none of its replies; the replies stay.
      await client.query(`delete from comments where id = 'cmt_reply'`);
      expect(await parents()).toEqual([
        ['cmt_late_parent', null],
        ['cmt_late_reply', null],
        ['cmt_orphan', 'cmt_late_parent'],
        ['cmt_other_account', null],
        ['cmt_top', null],
      ]);
    } finally {
      client.release();
    }
  });
});
