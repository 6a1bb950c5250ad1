/** Comments on posts and the replies under them, by other people or by the account itself. */
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { type SandboxComment, sandboxComments } from '../schema.ts';
import { numericId } from './ids.ts';
import { rowById } from './row-by-id.ts';

export async function addComment(
  store: Store,
  values: {
    postId: string;
    parentId: string | null;
    authorId: string;
    authorUsername: string;
    text: string;
    createdAt?: Date;
    /** Held from view (YouTube's heldForReview): listed only where the platform lists held comments. */
    hidden?: boolean;
    /** A review's star rating (Google Business Profile). */
    rating?: number;
    /** Its id in the platform's own format; absent: digits. */
    id?: string;
  },
): Promise<SandboxComment> {
  const [row] = await store.db
    .insert(sandboxComments)
    .values({ ...values, id: values.id ?? numericId(), createdAt: values.createdAt ?? store.now() })
    .returning();
  return row as SandboxComment;
}

/** Comments on a post (top level, or the replies to `parentId`), newest first. */
export async function listComments(
  store: Store,
  postId: string,
  options: { parentId?: string | null; limit: number; after?: string },
): Promise<{ comments: SandboxComment[]; more: boolean }> {
  const offset = options.after ? Number.parseInt(options.after, 10) || 0 : 0;
  const parent =
    options.parentId === undefined
      ? undefined
      : options.parentId === null
        ? isNull(sandboxComments.parentId)
        : eq(sandboxComments.parentId, options.parentId);
  const rows = await store.db
    .select()
    .from(sandboxComments)
    .where(and(eq(sandboxComments.postId, postId), parent))
    .orderBy(desc(sandboxComments.createdAt), desc(sandboxComments.id))
    .limit(options.limit + 1)
    .offset(offset);
  return { comments: rows.slice(0, options.limit), more: rows.length > options.limit };
}

/** The comments (replies) `authorId` wrote, newest first. */
export async function listCommentsBy(store: Store, authorId: string): Promise<SandboxComment[]> {
  return store.db
    .select()
    .from(sandboxComments)
    .where(eq(sandboxComments.authorId, authorId))
    .orderBy(desc(sandboxComments.createdAt), desc(sandboxComments.id))
    .limit(1000);
}

/**
 * The comments nested under comment `rootId` at every depth, in the order of `comments` (a
 * post's comments, as listComments answers them).
 */
export function commentsUnder(comments: readonly SandboxComment[], rootId: string): SandboxComment[] {
  const under = new Set([rootId]);
  // Oldest first, so a parent is seen before its replies.
  for (const c of [...comments].reverse()) if (c.parentId !== null && under.has(c.parentId)) under.add(c.id);
  return comments.filter((c) => c.id !== rootId && under.has(c.id));
}

export const findComment: (store: Store, id: string) => Promise<SandboxComment | undefined> = rowById(sandboxComments);

/** Deletes a comment and every comment under it, as the platforms do with a deleted comment's replies. */
export async function deleteComment(store: Store, comment: SandboxComment): Promise<void> {
  const { comments } = await listComments(store, comment.postId, { limit: 10_000 });
  const ids = [comment.id, ...commentsUnder(comments, comment.id).map((c) => c.id)];
  await store.db.delete(sandboxComments).where(inArray(sandboxComments.id, ids));
}

export async function setCommentHidden(store: Store, id: string, hidden: boolean): Promise<void> {
  await store.db.update(sandboxComments).set({ hidden }).where(eq(sandboxComments.id, id));
}

/** Its author changes a comment's words or (a review) its stars: `updatedAt` says when. */
export async function editComment(
  store: Store,
  id: string,
  changes: { text?: string; rating?: number },
): Promise<SandboxComment> {
  const [row] = await store.db
    .update(sandboxComments)
    .set({ ...changes, updatedAt: store.now() })
    .where(eq(sandboxComments.id, id))
    .returning();
  return row as SandboxComment;
}
