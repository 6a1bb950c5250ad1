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
  it('marks exactly the comments stored with replies asked through the API', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('alter table comments drop column has_replies');
      // The rows alone matter here, not the owners, accounts and posts they belong to.
      await client.query('set session_replication_role = replica');
      for (const id of ['cmt_a', 'cmt_b', 'cmt_c']) {
        await client.query(
          `insert into comments (id, owner_id, profile_id, account_id, post_id, platform, platform_comment_id,
             platform_post_id, text, commented_at, by_account, created_at, updated_at)
           values ($1, 'own_x', 'prf_x', 'acc_x', 'pst_x', 'instagram', $1, 'p1', 'hi', now(), false, now(), now())`,
          [id],
        );
      }
      for (const [id, commentId] of [
        ['crp_1', 'cmt_a'],
        ['crp_2', 'cmt_a'],
        ['crp_3', 'cmt_c'],
      ]) {
        await client.query(
          `insert into comment_replies (id, comment_id, text, status, created_at, updated_at)
           values ($1, $2, 'thanks', 'failed', now(), now())`,
          [id, commentId],
        );
      }
      await client.query('set session_replication_role = origin');
      for (const statement of await statementsOf('0025_comment_has_replies')) await client.query(statement);
      const { rows } = await client.query('select id, has_replies from comments order by id');
      expect(rows).toEqual([
        { id: 'cmt_a', has_replies: true },
        { id: 'cmt_b', has_replies: false },
        { id: 'cmt_c', has_replies: true },
      ]);
    } finally {
      client.release();
    }
  });
});
