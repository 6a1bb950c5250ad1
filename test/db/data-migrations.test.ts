import { readFile } from 'node:fs/promises';
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

describe('0025_comment_has_replies', () => {
  it('marks the comments stored with replies, and from then on every comment a reply row is written for', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('drop trigger comment_replies_mark_comment on comment_replies');
      await client.query('drop function comment_replies_mark_comment()');
      await client.query('alter table comments drop column has_replies');
      // The rows alone matter here, not the owners, accounts and posts they belong to (a database of this test's own).
      const { rows: keys } = await client.query<{ name: string }>(
        `select conname as name from pg_constraint where conrelid = 'comments'::regclass and contype = 'f'`,
      );
      for (const { name } of keys) await client.query(`alter table comments drop constraint "${name}"`);
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
