/**
 * Records of posts made on the platform rather than through the API: a comment always names
 * a post the API can show, so the first comment on such a post brings a `platform` post into
 * being (one `published` target). Such a post lives in its account's profile and moves with
 * the account; a post made through the API stays in the profile it was made in when its account
 * moves, so a comment on it whose account moved gets a `platform` record in the new profile instead.
 */
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { executeShaped, executeSqlShaped, oneOfPart } from '../../db/prepared.ts';
import { newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { commentsOf, PlatformError, type PlatformPostSummary, type PlatformSet } from '../../platforms/index.ts';
import {
  type Account,
  type AccountMoveStep,
  accountById,
  actAsAccount,
  noteAccountFailure,
} from '../accounts/index.ts';
import { posts, postTargets } from './tables.ts';

/** What the service knows of a platform post: at least its id. */
export type PlatformPostRef = Pick<PlatformPostSummary, 'id'> & Partial<Omit<PlatformPostSummary, 'id'>>;

type PostAccount = Pick<Account, 'id' | 'ownerId' | 'profileId' | 'platform'>;

const platformKey = (accountId: string, platformPostId: string) => `${accountId}:${platformPostId}`;

/** An account and the refs of its platform posts, for `ensurePlatformPostsOfAccounts`. */
export interface AccountPostRefs {
  account: PostAccount;
  refs: readonly PlatformPostRef[];
}

/**
 * The service's post for each of the account's platform posts, by platform post id: the API
 * post that published it (in the account's profile), else the account's `platform` post,
 * made now when there is none. New posts the refs say nothing about but their id get a job
 * that reads their text, permalink and time from the platform. Safe against concurrent
 * callers (one record per account and platform post, by a unique key).
 */
export async function ensurePlatformPosts(
  tx: Tx,
  account: PostAccount,
  refs: readonly PlatformPostRef[],
): Promise<Map<string, string>> {
  const found = await ensurePlatformPostsOfAccounts(tx, [{ account, refs }]);
  return found.get(account.id) ?? new Map();
}

/**
 * `ensurePlatformPosts` for several accounts at once (a notice job stores the comments of many
 * accounts): the posts are read in two statements and the missing ones inserted in two, whatever
 * the number of accounts; a new post still queues its own job to be described, and a known one
 * a ref describes is updated on its own. By account id, by platform post id, the post. An account
 * listed twice has both lists' refs.
 */
export async function ensurePlatformPostsOfAccounts(
  tx: Tx,
  list: readonly AccountPostRefs[],
): Promise<Map<string, Map<string, string>>> {
  const wanted = new Map<string, { account: PostAccount; byId: Map<string, PlatformPostRef> }>();
  for (const { account, refs } of list) {
    const entry = wanted.get(account.id) ?? { account, byId: new Map<string, PlatformPostRef>() };
    for (const ref of refs) entry.byId.set(ref.id, { ...entry.byId.get(ref.id), ...ref });
    wanted.set(account.id, entry);
  }
  // Every (account, platform post) in one order, so concurrent callers inserting the same posts cannot deadlock.
  const all = [...wanted.values()]
    .flatMap(({ account, byId }) => [...byId.keys()].map((id) => ({ account, id, ref: byId.get(id) ?? { id } })))
    .sort((a, b) => compare(a.account.id, b.account.id) || compare(a.id, b.id));
  const found = new Map<string, Map<string, string>>();
  for (const accountId of wanted.keys()) found.set(accountId, new Map());
  if (all.length === 0) return found;
  const foundOf = (accountId: string) => found.get(accountId) as Map<string, string>;

  for (const row of await postsMadeThroughApi(tx, all)) foundOf(row.account_id).set(row.platform_post_id, row.post_id);
  const rest = all.filter(({ account, id }) => !foundOf(account.id).has(id));
  if (rest.length === 0) return found;
  const existing = await postsByPlatformKey(
    tx,
    rest.map(({ account, id }) => platformKey(account.id, id)),
  );
  const known = new Map(existing.map((row) => [row.platformKey, row.id]));
  for (const { account, id, ref } of rest) {
    const postId = known.get(platformKey(account.id, id));
    if (postId !== undefined && (ref.permalink != null || ref.publishedAt != null))
      await describe(tx, postId, ref, true);
  }

  const missing = rest.filter(({ account, id }) => !known.has(platformKey(account.id, id)));
  if (missing.length > 0) await makePlatformPosts(tx, missing, known);
  for (const { account, id } of rest) {
    const postId = known.get(platformKey(account.id, id));
    if (postId === undefined) throw new Error(`no post record for ${account.platform} post ${id}`);
    foundOf(account.id).set(id, postId);
  }
  return found;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** An account's platform post the service needs a record of. */
interface PostOfAccount {
  account: PostAccount;
  id: string;
  ref: PlatformPostRef;
}

/** Of these platform posts, those an API post published in the account's profile: one statement for any number. */
async function postsMadeThroughApi(tx: Tx, wanted: readonly PostOfAccount[]) {
  return await executeSqlShaped<{ account_id: string; platform_post_id: string; post_id: string }>(
    tx,
    'posts of platform ids made through the API, by account',
    () => sql`
      select v.account_id, v.platform_post_id, ${posts.id} as post_id
      from unnest(
        ${sql.placeholder('account_ids')}::text[],
        ${sql.placeholder('profile_ids')}::text[],
        ${sql.placeholder('platform_post_ids')}::text[]
      ) as v(account_id, profile_id, platform_post_id)
      join ${postTargets}
        on ${postTargets.accountId} = v.account_id and ${postTargets.platformPostId} = v.platform_post_id
      join ${posts}
        on ${posts.id} = ${postTargets.postId} and ${posts.profileId} = v.profile_id and ${posts.source} = 'api'`,
    {
      account_ids: wanted.map(({ account }) => account.id),
      profile_ids: wanted.map(({ account }) => account.profileId),
      platform_post_ids: wanted.map(({ id }) => id),
    },
  );
}

/**
 * `platform` post records (and their published target) for these platform posts, in their
 * order; `known` takes each one's post id, whether made here or by a concurrent caller between
 * the read before and this insert.
 */
async function makePlatformPosts(tx: Tx, missing: readonly PostOfAccount[], known: Map<string | null, string>) {
  const at = now();
  const values = missing.map(({ account, id, ref }) => ({
    id: newId('post'),
    ownerId: account.ownerId,
    profileId: account.profileId,
    status: 'published' as const,
    source: 'platform' as const,
    platformKey: platformKey(account.id, id),
    text: ref.text ?? null,
    scheduledAt: ref.publishedAt ?? at,
    createdAt: at,
    updatedAt: at,
  }));
  const inserted = await tx
    .insert(posts)
    .values(values)
    .onConflictDoNothing({ target: posts.platformKey })
    .returning({ id: posts.id, platformKey: posts.platformKey });
  const made = new Set(inserted.map((row) => row.platformKey));
  const targets = missing.flatMap(({ account, id, ref }, i) => {
    const post = values[i];
    if (post === undefined || !made.has(post.platformKey)) return [];
    return [
      {
        id: newId('postTarget'),
        postId: post.id,
        accountId: account.id,
        platform: account.platform,
        status: 'published' as const,
        platformPostId: id,
        permalink: ref.permalink ?? null,
        publishedAt: ref.publishedAt ?? null,
        createdAt: at,
        updatedAt: at,
        described: ref.permalink !== undefined || ref.publishedAt !== undefined,
      },
    ];
  });
  if (targets.length > 0) await tx.insert(postTargets).values(targets.map(({ described: _, ...target }) => target));
  for (const target of targets) {
    if (target.described) continue;
    await enqueue(
      tx,
      'describe_platform_post',
      { post_id: target.postId },
      { jobKey: `describe_platform_post:${target.postId}` },
    );
  }
  for (const row of inserted) if (row.platformKey !== null) known.set(row.platformKey, row.id);
  const raced = missing.map(({ account, id }) => platformKey(account.id, id)).filter((key) => !known.has(key));
  if (raced.length > 0) for (const row of await postsByPlatformKey(tx, raced)) known.set(row.platformKey, row.id);
}

/** The post records of these platform keys. */
async function postsByPlatformKey(tx: Tx, keys: readonly string[]) {
  const keyIs = oneOfPart(posts.platformKey, keys, 'platform_keys');
  return await executeShaped(
    tx,
    `posts by platform key, ${keyIs.shape}`,
    (db) => db.select({ id: posts.id, platformKey: posts.platformKey }).from(posts).where(keyIs.sql),
    keyIs.values,
  );
}

async function describe(tx: Tx, postId: string, ref: PlatformPostRef, onlyMissing: boolean): Promise<void> {
  const at = now();
  const [target] = await tx
    .update(postTargets)
    .set({
      permalink: sql`coalesce(${ref.permalink ?? null}, ${postTargets.permalink})`,
      publishedAt: sql`coalesce(${ref.publishedAt ?? null}::timestamptz, ${postTargets.publishedAt})`,
      updatedAt: at,
    })
    .where(
      and(
        eq(postTargets.postId, postId),
        onlyMissing ? or(isNull(postTargets.permalink), isNull(postTargets.publishedAt)) : undefined,
      ),
    )
    .returning({ id: postTargets.id });
  if (!target) return;
  await tx
    .update(posts)
    .set({
      text: sql`coalesce(${posts.text}, ${ref.text ?? null})`,
      scheduledAt: ref.publishedAt ?? sql`${posts.scheduledAt}`,
      updatedAt: at,
    })
    .where(and(eq(posts.id, postId), eq(posts.source, 'platform')));
}

/** A `platform` post known only by its id: reads its text, permalink and time from the platform. */
export async function describePlatformPost(
  deps: { db: Db; platforms: () => PlatformSet; secretKey: Buffer; log: Logger },
  postId: string,
): Promise<void> {
  const { db } = deps;
  const [target] = await db
    .select({ accountId: postTargets.accountId, platformPostId: postTargets.platformPostId })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(and(eq(postTargets.postId, postId), eq(posts.source, 'platform')));
  const platformPostId = target?.platformPostId;
  if (!target || !platformPostId) return;
  const account = await accountById(db, target.accountId);
  if (account?.status !== 'connected') return;
  try {
    const adapter = deps.platforms().adapter(account.platform);
    const summary = await actAsAccount(
      { db, secretKey: deps.secretKey, platforms: deps.platforms() },
      account,
      (credentials) => commentsOf(adapter).postSummary(credentials, platformPostId),
    );
    await db.transaction((tx) => describe(tx, postId, summary, false));
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    await db.transaction((tx) => noteAccountFailure(tx, account.id, error, account.connectedAt));
    deps.log.warn(
      { post_id: postId, account_id: account.id, kind: error.kind, err: error.message },
      'could not read a platform post the service saw through a comment; it stays without text and permalink',
    );
  }
}

/** A `platform` post follows its account to its new profile. */
export const platformPostsFollowAccount: AccountMoveStep = async (tx, account) => {
  await tx
    .update(posts)
    .set({ profileId: account.profileId, updatedAt: now() })
    .where(
      and(
        eq(posts.ownerId, account.ownerId),
        eq(posts.source, 'platform'),
        sql`${posts.id} in (select ${postTargets.postId} from ${postTargets} where ${postTargets.accountId} = ${account.id})`,
      ),
    );
};
