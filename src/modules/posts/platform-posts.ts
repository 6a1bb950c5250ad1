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
import { executeShaped, oneOfPart, valuesOf } from '../../db/prepared.ts';
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
  const byId = new Map<string, PlatformPostRef>();
  for (const ref of refs) byId.set(ref.id, { ...byId.get(ref.id), ...ref });
  const found = new Map<string, string>();
  if (byId.size === 0) return found;
  // In one order, so concurrent callers inserting the same posts cannot deadlock.
  const ids = [...byId.keys()].sort();

  // Both reads built once per shape (oneOfPart: two for any number of ids): every stored comment asks them.
  const idIs = oneOfPart(postTargets.platformPostId, ids, 'platform_post_ids');
  const viaApi = await executeShaped(
    tx,
    `posts of platform ids made through the API, ${idIs.shape}`,
    (db) =>
      db
        .select({ platformPostId: postTargets.platformPostId, postId: posts.id })
        .from(postTargets)
        .innerJoin(posts, eq(posts.id, postTargets.postId))
        .where(
          and(
            eq(postTargets.accountId, sql.placeholder('account_id')),
            idIs.sql,
            eq(posts.profileId, sql.placeholder('profile_id')),
            eq(posts.source, 'api'),
          ),
        ),
    valuesOf(idIs, { values: { account_id: account.id, profile_id: account.profileId } }),
  );
  for (const row of viaApi) if (row.platformPostId !== null) found.set(row.platformPostId, row.postId);

  const rest = ids.filter((id) => !found.has(id));
  if (rest.length === 0) return found;
  const keys = rest.map((id) => platformKey(account.id, id));
  const existing = await postsByPlatformKey(tx, keys);
  const known = new Map(existing.map((row) => [row.platformKey, row.id]));
  await describeKnown(tx, account, rest, known, byId);

  const missing = rest.filter((id) => !known.has(platformKey(account.id, id)));
  if (missing.length > 0) {
    const at = now();
    const values = missing.map((id) => {
      const ref = byId.get(id) ?? { id };
      return {
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
      };
    });
    const inserted = await tx
      .insert(posts)
      .values(values)
      .onConflictDoNothing({ target: posts.platformKey })
      .returning({ id: posts.id, platformKey: posts.platformKey });
    const made = new Set(inserted.map((row) => row.platformKey));
    const targets = values
      .filter((v) => made.has(v.platformKey))
      .map((v) => {
        const platformPostId = v.platformKey.slice(account.id.length + 1);
        const ref = byId.get(platformPostId) ?? { id: platformPostId };
        return {
          id: newId('postTarget'),
          postId: v.id,
          accountId: account.id,
          platform: account.platform,
          status: 'published' as const,
          platformPostId,
          permalink: ref.permalink ?? null,
          publishedAt: ref.publishedAt ?? null,
          createdAt: at,
          updatedAt: at,
        };
      });
    if (targets.length > 0) await tx.insert(postTargets).values(targets);
    for (const target of targets) {
      const ref = byId.get(target.platformPostId);
      if (ref?.permalink === undefined && ref?.publishedAt === undefined) {
        await enqueue(
          tx,
          'describe_platform_post',
          { post_id: target.postId },
          { jobKey: `describe_platform_post:${target.postId}` },
        );
      }
    }
    for (const row of inserted) if (row.platformKey !== null) known.set(row.platformKey, row.id);
    // Made by a concurrent caller between our read and our insert: read what it made.
    const raced = missing.filter((id) => !known.has(platformKey(account.id, id)));
    if (raced.length > 0) {
      const rows = await postsByPlatformKey(
        tx,
        raced.map((id) => platformKey(account.id, id)),
      );
      for (const row of rows) known.set(row.platformKey, row.id);
    }
  }
  for (const id of rest) {
    const postId = known.get(platformKey(account.id, id));
    if (postId === undefined) throw new Error(`no post record for ${account.platform} post ${id}`);
    found.set(id, postId);
  }
  return found;
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

/** Fills in what a `platform` post record lacks when the refs now tell it (a poll after a notice). */
async function describeKnown(
  tx: Tx,
  account: PostAccount,
  ids: readonly string[],
  known: ReadonlyMap<string | null, string>,
  refs: ReadonlyMap<string, PlatformPostRef>,
): Promise<void> {
  for (const id of ids) {
    const postId = known.get(platformKey(account.id, id));
    const ref = refs.get(id);
    if (postId === undefined || ref === undefined || (ref.permalink == null && ref.publishedAt == null)) continue;
    await describe(tx, postId, ref, true);
  }
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
