import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { postStatusSql } from '../../src/modules/posts/post-status.ts';
import { createTestDatabase } from '../helpers/database.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/**
 * docs/posts.md: "The post's status follows from its targets: draft; awaiting_approval (waiting for
 * the client's approval); scheduled (none started);
 * publishing (some started or still waiting); published (every target that was not cancelled is
 * published); partially_published (some published, some failed); failed (none published, some
 * failed); cancelled (every target cancelled)."
 */
const CASES: [targets: string[], post: string][] = [
  // Not a state a post can reach (every post has a target), but an answer all the same.
  [[], 'draft'],
  [['draft'], 'draft'],
  [['draft', 'draft'], 'draft'],
  [['awaiting_approval'], 'awaiting_approval'],
  [['awaiting_approval', 'awaiting_approval'], 'awaiting_approval'],
  // As with scheduled: a cancelled target beside one still waiting leaves the post waiting.
  [['awaiting_approval', 'cancelled'], 'awaiting_approval'],
  [['scheduled'], 'scheduled'],
  [['scheduled', 'scheduled'], 'scheduled'],
  [['scheduled', 'cancelled'], 'scheduled'],
  [['publishing'], 'publishing'],
  [['scheduled', 'publishing'], 'publishing'],
  [['publishing', 'published'], 'publishing'],
  [['publishing', 'failed'], 'publishing'],
  [['scheduled', 'published'], 'publishing'],
  [['scheduled', 'failed'], 'publishing'],
  [['published'], 'published'],
  [['published', 'published'], 'published'],
  [['published', 'cancelled'], 'published'],
  [['published', 'failed'], 'partially_published'],
  [['published', 'failed', 'cancelled'], 'partially_published'],
  [['failed'], 'failed'],
  [['failed', 'failed'], 'failed'],
  [['failed', 'cancelled'], 'failed'],
  [['cancelled'], 'cancelled'],
  [['cancelled', 'cancelled'], 'cancelled'],
];

describe("a post's status from its targets'", () => {
  it.each(CASES)('targets %j make the post %s', async (targets, expected) => {
    const result = await database.db.execute<{ status: string }>(
      sql`select ${postStatusSql(sql`s`)} as status from unnest(${sql.param(targets)}::text[]) as s`,
    );
    expect(result.rows).toEqual([{ status: expected }]);
  });
});
