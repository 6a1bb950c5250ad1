/** Publishing containers (a TikTok publish_id, a Facebook photo to attach are kept as ones too). */
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { type SandboxContainer, sandboxContainers } from '../schema.ts';
import { numericId } from './ids.ts';
import { rowById } from './row-by-id.ts';
import { secondsOrNever } from './setting-kinds.ts';

/**
 * How long a new publishing container (Instagram, Threads, TikTok's video) stays IN_PROGRESS on
 * the sandbox clock. 5 s: as on the platforms with a video, publishing without polling fails,
 * while a demo still publishes within seconds. `never`: it never finishes, as a platform's
 * processing that hangs (an Instagram or Threads container still expires after a day unpublished).
 */
export const CONTAINER_PROCESSING_SECONDS = secondsOrNever('container_processing_seconds', 5, 86_400);

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

export const findContainer: (store: Store, id: string) => Promise<SandboxContainer | undefined> =
  rowById(sandboxContainers);

/** Marks the container published by `postId`; false when it already was. */
export async function markContainerPublished(store: Store, id: string, postId: string): Promise<boolean> {
  const rows = await store.db
    .update(sandboxContainers)
    .set({ publishedPostId: postId })
    .where(and(eq(sandboxContainers.id, id), isNull(sandboxContainers.publishedPostId)))
    .returning();
  return rows.length > 0;
}

/** Names the post a container became (after markContainerPublished held it for the making). */
export async function setContainerPost(store: Store, id: string, postId: string): Promise<void> {
  await store.db.update(sandboxContainers).set({ publishedPostId: postId }).where(eq(sandboxContainers.id, id));
}

/** The accounts with containers made since `since` by the app `clientId`, as each container's request names it. */
export async function accountsWithContainersOfApp(store: Store, clientId: string, since: Date): Promise<string[]> {
  const rows = await store.db
    .selectDistinct({ accountId: sandboxContainers.accountId })
    .from(sandboxContainers)
    .where(and(sql`${sandboxContainers.request}->>'client_id' = ${clientId}`, gt(sandboxContainers.createdAt, since)));
  return rows.map((r) => r.accountId);
}

/** How many containers of `kind` (their request's `kind`) the app `clientId` made since `since`. */
export async function containersOfAppSince(store: Store, kind: string, clientId: string, since: Date): Promise<number> {
  const [row] = await store.db
    .select({ count: sql<number>`count(*)::int` })
    .from(sandboxContainers)
    .where(
      and(
        sql`${sandboxContainers.request}->>'kind' = ${kind}`,
        sql`${sandboxContainers.request}->>'client_id' = ${clientId}`,
        gt(sandboxContainers.createdAt, since),
      ),
    );
  return row?.count ?? 0;
}

/** Replaces what the container records of its request (LinkedIn: an image's upload, once its bytes came). */
export async function setContainerRequest(store: Store, id: string, request: Record<string, unknown>): Promise<void> {
  await store.db.update(sandboxContainers).set({ request }).where(eq(sandboxContainers.id, id));
}

/** The container a published post came from (a YouTube upload session, for its video's status). */
export async function findContainerOfPost(store: Store, postId: string): Promise<SandboxContainer | undefined> {
  const [row] = await store.db.select().from(sandboxContainers).where(eq(sandboxContainers.publishedPostId, postId));
  return row;
}

/** The containers of `kind` the account made since `since`, oldest first (an account's daily allowance). */
export async function containersOfAccountSince(
  store: Store,
  accountId: string,
  kind: string,
  since: Date,
): Promise<SandboxContainer[]> {
  return await store.db
    .select()
    .from(sandboxContainers)
    .where(
      and(
        eq(sandboxContainers.accountId, accountId),
        sql`${sandboxContainers.request}->>'kind' = ${kind}`,
        gt(sandboxContainers.createdAt, since),
      ),
    )
    .orderBy(sandboxContainers.createdAt);
}

/** The account's latest container of `kind` that did not fail, whose request has `field` set to `value` (an upload of the same bytes). */
export async function findContainerByRequest(
  store: Store,
  accountId: string,
  kind: string,
  field: string,
  value: string,
): Promise<SandboxContainer | undefined> {
  const [row] = await store.db
    .select()
    .from(sandboxContainers)
    .where(
      and(
        eq(sandboxContainers.accountId, accountId),
        sql`${sandboxContainers.request}->>'kind' = ${kind}`,
        sql`${sandboxContainers.request}->>${field} = ${value}`,
        isNull(sandboxContainers.failure),
      ),
    )
    .orderBy(desc(sandboxContainers.createdAt))
    .limit(1);
  return row;
}
