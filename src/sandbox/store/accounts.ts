/** Platform users and the pages a user manages: made the first time a name is seen, with posts of their own. */
import { randomInt } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { DAY_MS } from '../../days.ts';
import { platformPart, type Store } from '../platform.ts';
import { type SandboxAccount, sandboxAccounts } from '../schema.ts';
import { addComment } from './comments.ts';
import { numericId } from './ids.ts';
import { createPost } from './posts.ts';

const COMMENTERS = ['maya.designs', 'jonas_runs', 'coffee.and.code', 'lena.travels'];
const HOUR_MS = 3_600_000;

/** The posts a new user (or page) is made with, as its platform says, and two comments by others on each. */
async function seedPosts(store: Store, account: SandboxAccount): Promise<void> {
  const { postTypes, comments } = platformPart(store, account.platform).newUser;
  const now = store.now().getTime();
  for (const [n, mediaType] of postTypes.entries()) {
    const age = (postTypes.length - n) * DAY_MS;
    const post = await createPost(store, account, {
      caption: `Sandbox post ${n + 1} by ${account.name}`,
      mediaType,
      mediaUrl: null,
      viaApi: false,
      createdAt: new Date(now - age),
    });
    if (!comments) continue;
    for (const [k, author] of COMMENTERS.slice(0, 2).entries()) {
      await addComment(store, {
        postId: post.id,
        parentId: null,
        authorId: numericId(),
        authorUsername: author,
        text: k === 0 ? 'Love this!' : 'Where was this taken?',
        createdAt: new Date(now - age + (k + 1) * HOUR_MS),
      });
    }
  }
}

/** The user with this username, made (with posts, and what else its platform makes) the first time it is seen. */
export async function ensureUser(
  store: Store,
  platform: string,
  username: string,
  chosenId?: string,
): Promise<SandboxAccount> {
  const existing = await findAccountByUsername(store, platform, username);
  if (existing) return existing;
  const id = chosenId ?? platformPart(store, platform).newUser.newId?.() ?? numericId();
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
  await platformPart(store, platform).newUser.afterCreate?.(store, created);
  return created;
}

/** A page `user` manages (a Facebook page), made with posts of its own as a new user is. */
export async function addPage(
  store: Store,
  user: SandboxAccount,
  values: { username: string; name: string; instagramBusinessAccountId: string | null },
  /** The page's id in the platform's format (a YouTube channel's `UC…`); absent: digits. */
  id: string = numericId(),
): Promise<SandboxAccount> {
  const pageId = id;
  const [page] = await store.db
    .insert(sandboxAccounts)
    .values({
      id: pageId,
      platform: user.platform,
      kind: 'page',
      parentId: user.id,
      ...values,
      avatarUrl: `https://sandbox.switchboard.invalid/avatars/${pageId}.png`,
      followersCount: 50 + randomInt(0, 2000),
      createdAt: store.now(),
    })
    .returning();
  await seedPosts(store, page as SandboxAccount);
  return page as SandboxAccount;
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
