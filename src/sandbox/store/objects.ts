/** Reading any of the sandbox's Graph objects by its id alone, as Graph's `GET /{id}` names them. */
import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { preparedPerDb } from '../../db/prepared.ts';
import type { Store } from '../platform.ts';
import {
  type SandboxComment,
  type SandboxContainer,
  type SandboxPost,
  sandboxComments,
  sandboxContainers,
  sandboxPosts,
} from '../schema.ts';

/** What an id names: a container, a post, or a comment with the account of the post it is under. */
export interface ObjectById {
  container: SandboxContainer | null;
  post: SandboxPost | null;
  comment: SandboxComment | null;
  /** The account whose post the comment is under; null without a comment, or when that post is gone. */
  commentPostAccountId: string | null;
}

const commentPost = alias(sandboxPosts, 'comment_post');

/**
 * One statement whatever the id names: a multiple-id read of a comment's time otherwise read its
 * container, post, comment and the comment's post one after another, four round trips an id on the
 * machine of the service that calls the sandbox.
 */
const objectById = preparedPerDb((db) =>
  db
    .select({
      container: sandboxContainers,
      post: sandboxPosts,
      comment: sandboxComments,
      commentPostAccountId: commentPost.accountId,
    })
    .from(sql`(select ${sql.placeholder('id')}::text as id) as asked`)
    .leftJoin(sandboxContainers, eq(sandboxContainers.id, sql`asked.id`))
    .leftJoin(sandboxPosts, eq(sandboxPosts.id, sql`asked.id`))
    .leftJoin(sandboxComments, eq(sandboxComments.id, sql`asked.id`))
    .leftJoin(commentPost, eq(commentPost.id, sandboxComments.postId))
    .prepare('sandbox_object_by_id'),
);

export async function findObject(store: Store, id: string): Promise<ObjectById> {
  const [row] = await objectById(store.db).execute({ id });
  return row ?? { container: null, post: null, comment: null, commentPostAccountId: null };
}
