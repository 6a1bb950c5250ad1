/** A platform user's (or page's) posts: made up for a new user, or published through an imitated API. */
import { and, desc, eq, gt, inArray, isNull, lt, ne, notInArray, or } from 'drizzle-orm';
import { platformPart, type Store } from '../platform.ts';
import { type SandboxAccount, type SandboxPost, sandboxPosts } from '../schema.ts';
import { numericId } from './ids.ts';
import { rowById } from './row-by-id.ts';

export async function createPost(
  store: Store,
  account: SandboxAccount,
  values: {
    caption: string;
    mediaType: string;
    mediaUrl: string | null;
    viaApi: boolean;
    replyToId?: string | null;
    createdAt?: Date;
    /** Its id in the platform's own format (a Bluesky record's at:// URI); absent: digits. */
    id?: string;
  },
): Promise<SandboxPost> {
  const id = values.id ?? numericId();
  const [row] = await store.db
    .insert(sandboxPosts)
    .values({
      id,
      accountId: account.id,
      caption: values.caption,
      mediaType: values.mediaType,
      mediaUrl: values.mediaUrl,
      permalink: platformPart(store, account.platform).permalink(account, id),
      viaApi: values.viaApi,
      replyToId: values.replyToId ?? null,
      createdAt: values.createdAt ?? store.now(),
    })
    .returning();
  return row as SandboxPost;
}

/** The account's posts, newest first, after the cursor (a post id) when given. */
export async function listPosts(
  store: Store,
  accountId: string,
  options: {
    limit: number;
    after?: string;
    kinds?: { include?: string[]; exclude?: string[] };
    /** Also the account's replies (X's timeline without `exclude=replies`). */
    replies?: boolean;
    /** Only posts made after this one (X's `since_id`). */
    since?: SandboxPost;
  },
): Promise<{ posts: SandboxPost[]; more: boolean }> {
  let cursor: SandboxPost | undefined;
  if (options.after) cursor = await findPost(store, options.after);
  const { since } = options;
  const rows = await store.db
    .select()
    .from(sandboxPosts)
    .where(
      and(
        eq(sandboxPosts.accountId, accountId),
        options.replies ? undefined : isNull(sandboxPosts.replyToId),
        since
          ? or(
              gt(sandboxPosts.createdAt, since.createdAt),
              and(eq(sandboxPosts.createdAt, since.createdAt), ne(sandboxPosts.id, since.id)),
            )
          : undefined,
        options.kinds?.include ? inArray(sandboxPosts.mediaType, options.kinds.include) : undefined,
        options.kinds?.exclude ? notInArray(sandboxPosts.mediaType, options.kinds.exclude) : undefined,
        cursor
          ? or(
              lt(sandboxPosts.createdAt, cursor.createdAt),
              and(eq(sandboxPosts.createdAt, cursor.createdAt), lt(sandboxPosts.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(sandboxPosts.createdAt), desc(sandboxPosts.id))
    .limit(options.limit + 1);
  return { posts: rows.slice(0, options.limit), more: rows.length > options.limit };
}

export const findPost: (store: Store, id: string) => Promise<SandboxPost | undefined> = rowById(sandboxPosts);
