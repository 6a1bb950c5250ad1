/** The sandbox platforms' state: users and pages, codes, tokens, posts, comments, figures, faults. */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
import type { CallLog } from './calls.ts';
import {
  sandboxAccounts,
  sandboxActivity,
  sandboxAppSubscriptions,
  sandboxCodes,
  sandboxComments,
  sandboxContainers,
  sandboxFaults,
  sandboxInsights,
  sandboxPosts,
  sandboxSettings,
  sandboxTokens,
} from './schema.ts';

export type SandboxAccount = typeof sandboxAccounts.$inferSelect;
export type SandboxToken = typeof sandboxTokens.$inferSelect;
export type SandboxPost = typeof sandboxPosts.$inferSelect;
export type SandboxComment = typeof sandboxComments.$inferSelect;
export type SandboxContainer = typeof sandboxContainers.$inferSelect;
export type SandboxFault = typeof sandboxFaults.$inferSelect;

export interface Store {
  db: Db;
  now: () => Date;
  /** The calls the imitated APIs received (in this process's memory, not in the database). */
  calls: CallLog;
}

/** A platform-looking id: 17 digits. */
export function numericId(): string {
  return `${randomInt(1, 10)}${Array.from({ length: 16 }, () => randomInt(0, 10)).join('')}`;
}

/*
 * Instagram gives a professional account more than one id (Instagram API with Instagram Login,
 * "Get Started" and the webhook examples; docs/platforms.md, "Instagram account ids"): the
 * professional account id (IG_ID: `/me`'s `user_id`, webhooks' `entry.id`, the id in paths),
 * which the sandbox keeps as the account's id; an app-scoped id (`/me`'s `id`, the code
 * exchange's `user_id`); and the account's Instagram-scoped id (IGSID: a comment's `from.id`
 * when the account wrote it, the `self_ig_scoped_id` of its own comments' notices). The two
 * others are derived from the first, with lengths of their own, so no two ever meet.
 */
export function instagramAppScopedId(accountId: string): string {
  return derivedDigits('app-scoped', accountId, '2', 17);
}

export function instagramScopedId(accountId: string): string {
  return derivedDigits('ig-scoped', accountId, '3', 16);
}

function derivedDigits(kind: string, id: string, lead: string, length: number): string {
  const digest = createHash('sha256').update(`${kind}:${id}`).digest();
  let digits = lead;
  for (const byte of digest) {
    if (digits.length === length) break;
    digits += String(byte % 10);
  }
  return digits;
}

/** An unguessable opaque string (codes, tokens) with a platform-like prefix. */
export function opaqueString(prefix: string): string {
  return `${prefix}${randomBytes(24).toString('base64url')}`;
}

const FACEBOOK_PAGES_PER_USER = 3;
const POSTS_PER_NEW_ACCOUNT = 3;
const COMMENTERS = ['maya.designs', 'jonas_runs', 'coffee.and.code', 'lena.travels'];

export function permalinkFor(platform: string, account: SandboxAccount, postId: string): string {
  switch (platform) {
    case 'instagram':
      return `https://www.instagram.com/p/${postId}/`;
    case 'threads':
      return `https://www.threads.net/@${encodeURIComponent(account.username)}/post/${postId}`;
    case 'tiktok':
      return `https://www.tiktok.com/@${encodeURIComponent(account.username)}/video/${postId}`;
    default:
      return `https://www.facebook.com/${account.id}/posts/${postId}`;
  }
}

/** A Threads reply's link: replies are posts of their author's. */
export function threadsReplyPermalink(comment: SandboxComment): string {
  return `https://www.threads.net/@${encodeURIComponent(comment.authorUsername)}/post/${comment.id}`;
}

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

export async function issueCode(
  store: Store,
  values: {
    platform: string;
    clientId: string;
    redirectUri: string;
    accountId: string;
    scopes: string[];
    pageIds?: string[];
  },
  ttlMs: number,
): Promise<string> {
  const code = opaqueString('');
  await store.db.insert(sandboxCodes).values({
    code,
    ...values,
    pageIds: values.pageIds ?? [],
    expiresAt: new Date(store.now().getTime() + ttlMs),
  });
  return code;
}

/** Uses the code once: null when unknown, used, expired, or issued to another client or redirect URI. */
export async function redeemCode(
  store: Store,
  values: { platform: string; code: string; clientId: string; redirectUri: string },
): Promise<typeof sandboxCodes.$inferSelect | null> {
  const now = store.now();
  const [row] = await store.db
    .update(sandboxCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(sandboxCodes.code, values.code),
        eq(sandboxCodes.platform, values.platform),
        eq(sandboxCodes.clientId, values.clientId),
        eq(sandboxCodes.redirectUri, values.redirectUri),
        isNull(sandboxCodes.usedAt),
        sql`${sandboxCodes.expiresAt} > ${now}`,
      ),
    )
    .returning();
  return row ?? null;
}

export async function issueToken(
  store: Store,
  values: {
    platform: string;
    accountId: string;
    kind: 'short' | 'long' | 'refresh' | 'page';
    clientId: string;
    scopes: string[];
    pageIds?: string[];
    prefix: string;
  },
  ttlMs: number | null,
): Promise<SandboxToken> {
  const now = store.now();
  const [row] = await store.db
    .insert(sandboxTokens)
    .values({
      token: opaqueString(values.prefix),
      platform: values.platform,
      accountId: values.accountId,
      kind: values.kind,
      clientId: values.clientId,
      scopes: values.scopes,
      pageIds: values.pageIds ?? [],
      issuedAt: now,
      expiresAt: ttlMs === null ? null : new Date(now.getTime() + ttlMs),
    })
    .returning();
  return row as SandboxToken;
}

export async function findToken(
  store: Store,
  token: string,
): Promise<{ token: SandboxToken; account: SandboxAccount } | null> {
  const [row] = await store.db
    .select({ token: sandboxTokens, account: sandboxAccounts })
    .from(sandboxTokens)
    .innerJoin(sandboxAccounts, eq(sandboxAccounts.id, sandboxTokens.accountId))
    .where(eq(sandboxTokens.token, token));
  return row ?? null;
}

/** The user's tokens and its pages' tokens: expired now (`expire`) or revoked (`revoke`). */
export async function endTokens(store: Store, account: SandboxAccount, how: 'expire' | 'revoke'): Promise<number> {
  const now = store.now();
  const pageIds = (await pagesOf(store, account.id)).map((p) => p.id);
  const ids = [account.id, ...pageIds];
  const live = and(inArray(sandboxTokens.accountId, ids), isNull(sandboxTokens.revokedAt));
  const rows =
    how === 'revoke'
      ? await store.db.update(sandboxTokens).set({ revokedAt: now }).where(live).returning()
      : await store.db
          .update(sandboxTokens)
          .set({ expiresAt: new Date(now.getTime() - 1000) })
          .where(and(live, or(isNull(sandboxTokens.expiresAt), sql`${sandboxTokens.expiresAt} > ${now}`)))
          .returning();
  return rows.length;
}

export async function addFault(
  store: Store,
  values: { accountId: string; trigger: 'call' | 'publish'; error: string; status?: number; body?: unknown },
): Promise<SandboxFault> {
  const [row] = await store.db
    .insert(sandboxFaults)
    .values({
      accountId: values.accountId,
      trigger: values.trigger,
      error: values.error,
      status: values.status ?? null,
      body: values.body ?? null,
      createdAt: store.now(),
    })
    .returning();
  return row as SandboxFault;
}

/** Takes the oldest fault waiting for this kind of call (a publish also takes `call` faults). */
export async function takeFault(store: Store, accountIds: string[], publishing: boolean): Promise<SandboxFault | null> {
  const triggers = publishing ? ['call', 'publish'] : ['call'];
  const rows = await store.db.execute<{ id: number }>(sql`
    delete from ${sandboxFaults} where id = (
      select id from ${sandboxFaults}
      where account_id in (${sql.join(
        accountIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and trigger in (${sql.join(
        triggers.map((t) => sql`${t}`),
        sql`, `,
      )})
      order by id limit 1 for update skip locked
    ) returning id, account_id, trigger, error, status, body, created_at`);
  const row = rows.rows[0] as Record<string, unknown> | undefined;
  if (!row) return null;
  return {
    id: Number(row.id),
    accountId: String(row.account_id),
    trigger: String(row.trigger),
    error: String(row.error),
    status: row.status === null ? null : Number(row.status),
    body: row.body,
    createdAt: new Date(String(row.created_at)),
  };
}

/** Throttles the account and, for a Facebook user, the pages it manages. */
export async function setThrottle(store: Store, accountId: string, until: Date | null): Promise<void> {
  await store.db
    .update(sandboxAccounts)
    .set({ throttledUntil: until })
    .where(or(eq(sandboxAccounts.id, accountId), eq(sandboxAccounts.parentId, accountId)));
}

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
  },
): Promise<SandboxPost> {
  const id = numericId();
  const [row] = await store.db
    .insert(sandboxPosts)
    .values({
      id,
      accountId: account.id,
      caption: values.caption,
      mediaType: values.mediaType,
      mediaUrl: values.mediaUrl,
      permalink: permalinkFor(account.platform, account, id),
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
  options: { limit: number; after?: string; kinds?: { include?: string[]; exclude?: string[] } },
): Promise<{ posts: SandboxPost[]; more: boolean }> {
  let cursor: SandboxPost | undefined;
  if (options.after) cursor = await findPost(store, options.after);
  const rows = await store.db
    .select()
    .from(sandboxPosts)
    .where(
      and(
        eq(sandboxPosts.accountId, accountId),
        isNull(sandboxPosts.replyToId),
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

export async function findPost(store: Store, id: string): Promise<SandboxPost | undefined> {
  const [row] = await store.db.select().from(sandboxPosts).where(eq(sandboxPosts.id, id));
  return row;
}

export async function addComment(
  store: Store,
  values: {
    postId: string;
    parentId: string | null;
    authorId: string;
    authorUsername: string;
    text: string;
    createdAt?: Date;
  },
): Promise<SandboxComment> {
  const [row] = await store.db
    .insert(sandboxComments)
    .values({ id: numericId(), ...values, createdAt: values.createdAt ?? store.now() })
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

export async function findComment(store: Store, id: string): Promise<SandboxComment | undefined> {
  const [row] = await store.db.select().from(sandboxComments).where(eq(sandboxComments.id, id));
  return row;
}

export async function setCommentHidden(store: Store, id: string, hidden: boolean): Promise<void> {
  await store.db.update(sandboxComments).set({ hidden }).where(eq(sandboxComments.id, id));
}

export async function createContainer(
  store: Store,
  accountId: string,
  request: Record<string, unknown>,
  failure: string | null = null,
): Promise<SandboxContainer> {
  const [row] = await store.db
    .insert(sandboxContainers)
    .values({ id: numericId(), accountId, request, failure, createdAt: store.now() })
    .returning();
  return row as SandboxContainer;
}

export async function findContainer(store: Store, id: string): Promise<SandboxContainer | undefined> {
  const [row] = await store.db.select().from(sandboxContainers).where(eq(sandboxContainers.id, id));
  return row;
}

/** Marks the container published by `postId`; false when it already was. */
export async function markContainerPublished(store: Store, id: string, postId: string): Promise<boolean> {
  const rows = await store.db
    .update(sandboxContainers)
    .set({ publishedPostId: postId })
    .where(and(eq(sandboxContainers.id, id), isNull(sandboxContainers.publishedPostId)))
    .returning();
  return rows.length > 0;
}

/** Sets figures of one account (or post): one statement, the last value given for a day winning. */
export async function setInsights(
  store: Store,
  key: { accountId: string; postId: string; metric: string },
  values: readonly { day: string; value: number | null }[],
): Promise<void> {
  // One row per day: PostgreSQL refuses to update the same row twice in one statement.
  const byDay = new Map(values.map(({ day, value }) => [day, value]));
  if (byDay.size === 0) return;
  await store.db
    .insert(sandboxInsights)
    .values([...byDay].map(([day, value]) => ({ ...key, day, value })))
    .onConflictDoUpdate({
      target: [sandboxInsights.accountId, sandboxInsights.postId, sandboxInsights.metric, sandboxInsights.day],
      set: { value: sql`excluded.value` },
    });
}

/** Post figures are lifetime totals, kept under this one day. */
export const LIFETIME_DAY = '1970-01-01';

/** The figure set through the control API for this key, if any (`insightFigures` makes one up otherwise). */
export async function findInsight(
  store: Store,
  key: { accountId: string; postId: string; metric: string; day: string },
): Promise<{ value: number | null } | undefined> {
  const [row] = await store.db
    .select({ value: sandboxInsights.value })
    .from(sandboxInsights)
    .where(
      and(
        eq(sandboxInsights.accountId, key.accountId),
        eq(sandboxInsights.postId, key.postId),
        eq(sandboxInsights.metric, key.metric),
        eq(sandboxInsights.day, key.day),
      ),
    );
  return row;
}

/** Figures by metric, then by day: a number, or null for "no data". */
export type InsightFigures = Map<string, Map<string, number | null>>;

/** A figure never set: made up from a hash, so the same key always answers the same. */
function madeUpFigure(accountId: string, postId: string, metric: string, day: string): number {
  const digest = createHash('sha256').update(`${accountId}/${postId}/${metric}/${day}`).digest();
  return digest.readUInt16BE(0) % 500;
}

/**
 * The figures of `metrics` on `days` for one account (or, with `postId`, one post): those set
 * through the control API (null = no data) read in one query, a made-up one (stable across
 * calls) for every other day up to today, and no data for days still to come.
 */
export async function insightFigures(
  store: Store,
  key: { accountId: string; postId: string; metrics: readonly string[]; days: readonly string[] },
): Promise<InsightFigures> {
  const figures: InsightFigures = new Map(key.metrics.map((metric) => [metric, new Map()]));
  if (key.metrics.length === 0 || key.days.length === 0) return figures;
  const days = [...key.days].sort();
  const rows = await store.db
    .select({ metric: sandboxInsights.metric, day: sandboxInsights.day, value: sandboxInsights.value })
    .from(sandboxInsights)
    .where(
      and(
        eq(sandboxInsights.accountId, key.accountId),
        eq(sandboxInsights.postId, key.postId),
        inArray(sandboxInsights.metric, [...key.metrics]),
        // The days asked are a range in practice; a gap in them only reads rows that are left unused.
        gte(sandboxInsights.day, days[0] as string),
        lte(sandboxInsights.day, days.at(-1) as string),
      ),
    );
  const set = new Map(rows.map((r) => [`${r.metric}/${r.day}`, r.value]));
  const today = store.now().toISOString().slice(0, 10);
  for (const [metric, byDay] of figures) {
    for (const day of key.days) {
      const found = set.get(`${metric}/${day}`);
      if (found !== undefined) byDay.set(day, found);
      else byDay.set(day, day > today ? null : madeUpFigure(key.accountId, key.postId, metric, day));
    }
  }
  return figures;
}

export async function recordActivity(
  store: Store,
  values: {
    accountId: string;
    action: 'publish' | 'reply' | 'comment' | 'hide' | 'unhide' | 'revoke';
    targetId: string;
    detail: Record<string, unknown>;
  },
): Promise<void> {
  await store.db.insert(sandboxActivity).values({ ...values, at: store.now() });
}

/** What a platform received for a post it published, as the activity lists it. */
export interface Publication {
  text: string;
  mediaUrls: string[];
  /** The platform's own name for the kind of post (IMAGE, REELS, STORIES, CAROUSEL, VIDEO, TEXT, LINK...). */
  type: string;
  /** The options the platform took for it, in its own names (reply_control, disable_duet, link...). */
  options: Record<string, unknown>;
}

/**
 * Records a publication (`publish`) in the one shape every platform shares: `text`,
 * `media_urls`, `type`, `options`, `permalink`, beside the platform's raw request fields.
 */
export async function recordPublication(
  store: Store,
  post: SandboxPost,
  publication: Publication,
  raw: Record<string, unknown> = {},
): Promise<void> {
  await recordActivity(store, {
    accountId: post.accountId,
    action: 'publish',
    targetId: post.id,
    detail: {
      ...raw,
      text: publication.text,
      media_urls: publication.mediaUrls,
      type: publication.type,
      options: publication.options,
      permalink: post.permalink,
    },
  });
}

/** How many times the account did `action` in the last `windowMs` (publishing quotas count publications). */
export async function countActivity(
  store: Store,
  accountId: string,
  action: string,
  windowMs: number,
): Promise<number> {
  const since = new Date(store.now().getTime() - windowMs);
  const rows = await store.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sandboxActivity)
    .where(
      and(eq(sandboxActivity.accountId, accountId), eq(sandboxActivity.action, action), gt(sandboxActivity.at, since)),
    );
  return rows[0]?.n ?? 0;
}

export async function listActivity(
  store: Store,
  accountIds: string[],
): Promise<(typeof sandboxActivity.$inferSelect)[]> {
  if (accountIds.length === 0) return [];
  return store.db
    .select()
    .from(sandboxActivity)
    .where(inArray(sandboxActivity.accountId, accountIds))
    .orderBy(asc(sandboxActivity.id));
}

/** Sets the webhook fields the account asks the app's notices for (replacing those it asked before). */
export async function setAppSubscription(store: Store, accountId: string, fields: readonly string[]): Promise<void> {
  const row = { accountId, fields: [...new Set(fields)], subscribedAt: store.now() };
  await store.db
    .insert(sandboxAppSubscriptions)
    .values(row)
    .onConflictDoUpdate({ target: sandboxAppSubscriptions.accountId, set: row });
}

/** Whether the account asked the app's notices for `field` (Meta sends it none otherwise). */
export async function subscribedTo(store: Store, accountId: string, field: string): Promise<boolean> {
  const [row] = await store.db
    .select({ fields: sandboxAppSubscriptions.fields })
    .from(sandboxAppSubscriptions)
    .where(eq(sandboxAppSubscriptions.accountId, accountId));
  return row?.fields.includes(field) ?? false;
}

/** Whether the user holds a live token granting `scope` (of any app the sandbox issued tokens to). */
export async function holdsLiveScope(store: Store, accountId: string, scope: string): Promise<boolean> {
  const now = store.now();
  const [row] = await store.db
    .select({ token: sandboxTokens.token })
    .from(sandboxTokens)
    .where(
      and(
        eq(sandboxTokens.accountId, accountId),
        isNull(sandboxTokens.revokedAt),
        or(isNull(sandboxTokens.expiresAt), gt(sandboxTokens.expiresAt, now)),
        sql`${scope} = any(${sandboxTokens.scopes})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** A sandbox-wide setting: its default and what it accepts (a JSON value). */
interface SettingSpec<T extends string | number> {
  default: T;
  /** The value as the setting holds it, or null when it is not one it takes. */
  read(value: unknown): T | null;
  /** What it takes, for the control API's refusal. */
  takes: string;
}

function oneOf<const T extends string>(values: readonly T[]): SettingSpec<T> {
  return {
    default: values[0] as T,
    read: (value) => ((values as readonly unknown[]).includes(value) ? (value as T) : null),
    takes: `one of ${values.join(', ')}`,
  };
}

/** A whole number from 0 to `max` (`what`: how the refusal names it). */
function wholeNumber(fallback: number, max: number, what = 'a whole number'): SettingSpec<number> {
  return {
    default: fallback,
    read: (value) =>
      Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max ? (value as number) : null,
    takes: `${what} from 0 to ${max}`,
  };
}

const seconds = (fallback: number, max: number) => wholeNumber(fallback, max, 'a whole number of seconds');

function commaList(fallback: string): SettingSpec<string> {
  return {
    default: fallback,
    read: (value) => (typeof value === 'string' && value.trim() !== '' && value.length <= 2000 ? value : null),
    takes: 'a comma-separated list (or *)',
  };
}

/** Switches the control API sets (`PUT /_control/settings/{name}`); see docs/sandbox.md. */
export const SANDBOX_SETTINGS = {
  /** Instagram's code exchange: `data` (documented, `{"data":[{...}]}`) or `flat` (`{...}`). */
  instagram_token_shape: oneOf(['data', 'flat']),
  /**
   * How long a new publishing container (Instagram, Threads media, TikTok's video) stays
   * IN_PROGRESS on the sandbox clock. 5 s: as on the platforms with a video, publishing
   * without polling fails, while a demo still publishes within seconds.
   */
  container_processing_seconds: seconds(5, 86_400),
  /** How long TikTok's moderation of a public post takes: "usually within one minute" (TikTok's post status docs). */
  tiktok_moderation_seconds: seconds(30, 2 * 86_400),
  /**
   * The longest video (whole seconds) a TikTok account may post, which creator_info answers
   * as max_video_post_duration_sec: "Different users have different maximum video-duration
   * privileges" (Query Creator Info reference), 3, 5 or 10 minutes (Media Transfer Guide).
   * The sandbox gives every account the longest, 10 minutes.
   */
  tiktok_max_video_post_duration_sec: seconds(600, 86_400),
  /** `unaudited`: as TikTok treats an app before its audit (private accounts only, SELF_ONLY posts, 5 posting users a day). */
  tiktok_client_audit: oneOf(['audited', 'unaudited']),
  /**
   * Posts an Instagram account may publish through the API in a moving 24 hours: 100, as
   * the Content Publishing guide says (carousels count once). Lower it to spend it in a test.
   */
  instagram_publish_quota: wholeNumber(100, 10_000),
  /** Threads: 250 posts in a moving 24 hours (Threads API overview, "Posts"); replies have their own 1,000. */
  threads_publish_quota: wholeNumber(250, 10_000),
  /** The URL prefixes (or domains) the TikTok app verified for PULL_FROM_URL; `*`: every one. */
  tiktok_verified_url_prefixes: commaList('*'),
  /**
   * Instagram's comment notices: `entry` (`field`/`value` on the entry, as the Instagram
   * Login examples show them) or `changes` (nested in `entry[].changes[]`, Facebook Login's).
   */
  instagram_webhook_shape: oneOf(['entry', 'changes']),
  /**
   * What Instagram's and Facebook's Graph answers report in `X-App-Usage` (call_count,
   * total_time and total_cputime, percent of the app's limit). 0: no header, as Graph sends
   * none before enough calls were made.
   */
  app_usage_percent: wholeNumber(0, 100, 'a whole percentage'),
} as const;
export type SandboxSettingName = keyof typeof SANDBOX_SETTINGS;
type SettingValue<N extends SandboxSettingName> = (typeof SANDBOX_SETTINGS)[N]['default'];

export async function setSetting(store: Store, name: SandboxSettingName, value: string | number): Promise<void> {
  await store.db
    .insert(sandboxSettings)
    .values({ name, value })
    .onConflictDoUpdate({ target: sandboxSettings.name, set: { value } });
}

export async function getSetting<N extends SandboxSettingName>(store: Store, name: N): Promise<SettingValue<N>> {
  const [row] = await store.db.select().from(sandboxSettings).where(eq(sandboxSettings.name, name));
  const spec: SettingSpec<string | number> = SANDBOX_SETTINGS[name];
  return (row === undefined ? spec.default : (spec.read(row.value) ?? spec.default)) as SettingValue<N>;
}

/** Where the testers of one app are kept: in the settings table, as a JSON list of account ids. */
function testersKey(platform: string, clientId: string): string {
  return `testers:${platform}:${clientId}`;
}

/** Marks the user a tester of the app `clientId` (Threads' debug_token answers only to testers). */
export async function markTester(store: Store, platform: string, clientId: string, accountId: string): Promise<void> {
  const one = JSON.stringify([accountId]);
  await store.db
    .insert(sandboxSettings)
    .values({ name: testersKey(platform, clientId), value: [accountId] })
    .onConflictDoUpdate({
      target: sandboxSettings.name,
      set: {
        value: sql`case when ${sandboxSettings.value} @> ${one}::jsonb then ${sandboxSettings.value} else ${sandboxSettings.value} || ${one}::jsonb end`,
      },
    });
}

export async function isTester(store: Store, platform: string, clientId: string, accountId: string): Promise<boolean> {
  const [row] = await store.db
    .select()
    .from(sandboxSettings)
    .where(eq(sandboxSettings.name, testersKey(platform, clientId)));
  return Array.isArray(row?.value) && row.value.includes(accountId);
}
