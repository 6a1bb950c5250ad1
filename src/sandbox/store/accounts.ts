/** Platform users and the pages a user manages: made the first time a name is seen, with posts of their own. */
import { randomInt } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { type SandboxAccount, sandboxAccounts } from '../schema.ts';
import { addComment } from './comments.ts';
import { numericId } from './ids.ts';
import { createPost } from './posts.ts';

const FACEBOOK_PAGES_PER_USER = 3;
const POSTS_PER_NEW_ACCOUNT = 3;
const COMMENTERS = ['maya.designs', 'jonas_runs', 'coffee.and.code', 'lena.travels'];

async function seedPosts(store: Store, account: SandboxAccount): Promise<void> {
  const now = store.now().getTime();
  for (let i = POSTS_PER_NEW_ACCOUNT; i >= 1; i -= 1) {
    const post = await createPost(store, account, {
      caption: `Sandbox post ${POSTS_PER_NEW_ACCOUNT - i + 1} by ${account.name}`,
      mediaType: account.platform === 'tiktok' ? 'VIDEO' : i === 1 ? 'TEXT' : 'IMAGE',
      mediaUrl: null,
      viaApi: false,
      createdAt: new Date(now - i * 86_400_000),
    });
    if (account.platform === 'tiktok') continue;
    for (const [n, author] of COMMENTERS.slice(0, 2).entries()) {
      await addComment(store, {
        postId: post.id,
        parentId: null,
        authorId: numericId(),
        authorUsername: author,
        text: n === 0 ? 'Love this!' : 'Where was this taken?',
        createdAt: new Date(now - i * 86_400_000 + (n + 1) * 3_600_000),
      });
    }
  }
}

/** The user with this username, made (with posts, and pages on Facebook) the first time it is seen. */
export async function ensureUser(
  store: Store,
  platform: string,
  username: string,
  chosenId?: string,
): Promise<SandboxAccount> {
  const existing = await findAccountByUsername(store, platform, username);
  if (existing) return existing;
  const id = chosenId ?? numericId();
  const [created] = await store.db
    .insert(sandboxAccounts)
    .values({
      id,
      platform,
      kind: 'user',
      username,
      name: username.replace(/[._-]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()),
      avatarUrl: `https://sandbox.switchboard.invalid/avatars/${id}.png`,
      followersCount: 100 + randomInt(0, 5000),
      createdAt: store.now(),
    })
    .onConflictDoNothing()
    .returning();
  // Someone else made it in the meantime: theirs is the user.
  if (!created) return (await findAccountByUsername(store, platform, username)) as SandboxAccount;
  await seedPosts(store, created);
  if (platform === 'facebook') {
    for (let n = 1; n <= FACEBOOK_PAGES_PER_USER; n += 1) {
      const pageId = numericId();
      const [page] = await store.db
        .insert(sandboxAccounts)
        .values({
          id: pageId,
          platform,
          kind: 'page',
          parentId: created.id,
          username: `${username}.page${n}`,
          name: `${created.name} Page ${n}`,
          avatarUrl: `https://sandbox.switchboard.invalid/avatars/${pageId}.png`,
          followersCount: 50 + randomInt(0, 2000),
          instagramBusinessAccountId: n === 1 ? numericId() : null,
          createdAt: store.now(),
        })
        .returning();
      if (page) await seedPosts(store, page);
    }
  }
  return created;
}

/** Makes the account private or public (TikTok: what creator_info offers, what an unaudited app may post to). */
export async function setAccountPrivate(store: Store, accountId: string, value: boolean): Promise<SandboxAccount> {
  const [row] = await store.db
    .update(sandboxAccounts)
    .set({ private: value })
    .where(eq(sandboxAccounts.id, accountId))
    .returning();
  return row as SandboxAccount;
}

export async function findAccountByUsername(
  store: Store,
  platform: string,
  username: string,
): Promise<SandboxAccount | undefined> {
  const [row] = await store.db
    .select()
    .from(sandboxAccounts)
    .where(and(eq(sandboxAccounts.platform, platform), eq(sandboxAccounts.username, username)));
  return row;
}

export async function findAccount(store: Store, id: string): Promise<SandboxAccount | undefined> {
  const [row] = await store.db.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, id));
  return row;
}

export async function pagesOf(store: Store, userId: string): Promise<SandboxAccount[]> {
  return store.db
    .select()
    .from(sandboxAccounts)
    .where(eq(sandboxAccounts.parentId, userId))
    .orderBy(asc(sandboxAccounts.username));
}
