/**
 * The sandbox sends comment webhooks as Meta does for Instagram, Threads and Facebook Pages:
 * an app subscribes a callback (verified first with Meta's `hub.challenge` handshake), and
 * every comment added on one of those platforms is POSTed to it in the platform's own shape,
 * signed `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body under the app secret>`.
 * A notice that fails (non-2xx or no answer) is tried again a few times (RETRY_DELAYS_MS);
 * Meta keeps trying for up to 36 hours, which a sandbox has no reason to imitate.
 * docs/sandbox.md, "Webhooks".
 */
import { createHmac, randomInt } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { request } from 'undici';
import { instagramScopedId } from './instagram/ids.ts';
import { graphTime } from './meta/fields.ts';
import type { Store } from './platform.ts';
import {
  type SandboxAccount,
  type SandboxComment,
  type SandboxPost,
  type SandboxWebhook,
  type SandboxWebhookDelivery,
  sandboxWebhookDeliveries,
  sandboxWebhooks,
} from './schema.ts';
import { findAccount } from './store/accounts.ts';
import { subscribedTo } from './store/app-subscriptions.ts';
import { holdsLiveScope } from './store/grants.ts';
import { numericId } from './store/ids.ts';
import { findPost } from './store/posts.ts';
import { getSetting } from './store/settings.ts';
import { threadsReplyPermalink } from './threads/ids.ts';

/** The platforms whose comments Meta reports through webhooks. */
export const WEBHOOK_PLATFORMS = ['instagram', 'threads', 'facebook'] as const;
export type WebhookPlatform = (typeof WEBHOOK_PLATFORMS)[number];

export function isWebhookPlatform(value: string): value is WebhookPlatform {
  return (WEBHOOK_PLATFORMS as readonly string[]).includes(value);
}

/** Waits before the 2nd, 3rd, 4th and 5th attempts: a test sees a retry within a second, a demo's callback gets minutes. */
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000];
const SEND_TIMEOUT_MS = 10_000;
/** The most of a callback's answer kept for the handshake's refusal message. */
const ANSWER_EXCERPT = 200;

export class SubscriptionRefused extends Error {}

/**
 * Verifies the callback as Meta's App Dashboard does ("Verification Requests",
 * https://developers.facebook.com/docs/graph-api/webhooks/getting-started#verification-requests):
 * `GET callback?hub.mode=subscribe&hub.challenge=<n>&hub.verify_token=<token>`, which must
 * answer 200 with the challenge alone. Then stores the subscription (replacing the platform's).
 */
export async function subscribe(
  store: Store,
  platform: WebhookPlatform,
  values: { callbackUrl: string; verifyToken: string; appSecret: string },
): Promise<SandboxWebhook> {
  const challenge = String(randomInt(1_000_000_000, 2_000_000_000));
  const url = new URL(values.callbackUrl);
  url.searchParams.set('hub.mode', 'subscribe');
  url.searchParams.set('hub.challenge', challenge);
  url.searchParams.set('hub.verify_token', values.verifyToken);
  let status: number;
  let answer: string;
  try {
    const response = await request(url, { method: 'GET', signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
    status = response.statusCode;
    answer = await response.body.text();
  } catch (error) {
    throw new SubscriptionRefused(`the callback could not be reached: ${(error as Error).message}`);
  }
  if (status !== 200 || answer !== challenge) {
    throw new SubscriptionRefused(
      `the callback did not echo hub.challenge ${challenge}: it answered HTTP ${status} with ${JSON.stringify(answer.slice(0, ANSWER_EXCERPT))}`,
    );
  }
  const row = {
    platform,
    callbackUrl: values.callbackUrl,
    verifyToken: values.verifyToken,
    appSecret: values.appSecret,
    appId: numericId(),
    subscriptionId: numericId(),
    createdAt: store.now(),
  };
  await store.db.insert(sandboxWebhooks).values(row).onConflictDoUpdate({ target: sandboxWebhooks.platform, set: row });
  return row;
}

export async function listSubscriptions(store: Store): Promise<SandboxWebhook[]> {
  return store.db.select().from(sandboxWebhooks).orderBy(sandboxWebhooks.platform);
}

export async function unsubscribe(store: Store, platform: WebhookPlatform): Promise<boolean> {
  const rows = await store.db.delete(sandboxWebhooks).where(eq(sandboxWebhooks.platform, platform)).returning();
  return rows.length > 0;
}

export async function listDeliveries(
  store: Store,
  options: { platform?: string; limit: number },
): Promise<SandboxWebhookDelivery[]> {
  return store.db
    .select()
    .from(sandboxWebhookDeliveries)
    .where(options.platform === undefined ? undefined : eq(sandboxWebhookDeliveries.platform, options.platform))
    .orderBy(desc(sandboxWebhookDeliveries.id))
    .limit(options.limit);
}

const unixSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** Instagram's `media_product_type` of a kept post. */
function productType(post: SandboxPost): string {
  if (post.mediaType.startsWith('STORY')) return 'STORY';
  return post.mediaType === 'REELS' || post.mediaType === 'VIDEO' ? 'REELS' : 'FEED';
}

/**
 * Instagram Login's `comments` notice (https://developers.facebook.com/docs/instagram-platform/webhooks/examples):
 * `field` and `value` on the entry as the examples show it, or (setting
 * `instagram_webhook_shape: changes`) nested in `changes[]` as Facebook Login's notices are.
 */
async function instagramNotice(store: Store, account: SandboxAccount, post: SandboxPost, comment: SandboxComment) {
  // The account's own comment names it by its professional account id (as `entry.id` does),
  // with its Instagram-scoped id beside it (the Self Messaging page's "Example Comment Webhook").
  const from =
    comment.authorId === account.id
      ? { id: account.id, username: comment.authorUsername, self_ig_scoped_id: instagramScopedId(account.id) }
      : { id: comment.authorId, username: comment.authorUsername };
  const value = {
    id: comment.id,
    from,
    text: comment.text,
    media: { id: post.id, media_product_type: productType(post) },
    ...(comment.parentId !== null ? { parent_id: comment.parentId } : {}),
  };
  const change = { field: 'comments', value };
  const entry = { id: account.id, time: unixSeconds(store.now()) };
  const shape = await getSetting(store, 'instagram_webhook_shape');
  return {
    object: 'instagram',
    entry: [shape === 'changes' ? { ...entry, changes: [change] } : { ...entry, ...change }],
  };
}

/** Threads' `replies` notice (topic `moderate`), as https://developers.facebook.com/docs/threads/webhooks shows it. */
function threadsNotice(
  store: Store,
  subscription: SandboxWebhook,
  account: SandboxAccount,
  post: SandboxPost,
  comment: SandboxComment,
) {
  return {
    app_id: subscription.appId,
    topic: 'moderate',
    target_id: account.id,
    time: unixSeconds(store.now()),
    subscription_id: subscription.subscriptionId,
    has_uid_field: false,
    values: {
      value: {
        id: comment.id,
        username: comment.authorUsername,
        text: comment.text,
        media_type: 'TEXT_POST',
        permalink: threadsReplyPermalink(comment),
        replied_to: { id: comment.parentId ?? post.id },
        root_post: { id: post.id, owner_id: account.id, username: account.username },
        shortcode: comment.id,
        timestamp: graphTime(comment.createdAt),
      },
      field: 'replies',
    },
  };
}

/**
 * A Page's `feed` change for a comment added
 * (https://developers.facebook.com/docs/graph-api/webhooks/reference/page/#feed): a top-level
 * comment's `parent_id` is its post. Ids as the sandbox's Graph answers give them.
 */
function facebookNotice(store: Store, page: SandboxAccount, post: SandboxPost, comment: SandboxComment) {
  return {
    object: 'page',
    entry: [
      {
        id: page.id,
        time: unixSeconds(store.now()),
        changes: [
          {
            field: 'feed',
            value: {
              from: { id: comment.authorId, name: comment.authorId === page.id ? page.name : comment.authorUsername },
              post: {
                id: post.id,
                status_type: post.mediaType === 'TEXT' ? 'mobile_status_update' : 'added_photos',
                is_published: true,
                permalink_url: post.permalink,
              },
              message: comment.text,
              post_id: post.id,
              comment_id: comment.id,
              created_time: unixSeconds(comment.createdAt),
              item: 'comment',
              parent_id: comment.parentId ?? post.id,
              verb: 'add',
            },
          },
        ],
      },
    ],
  };
}

export function signature(body: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body, 'utf8').digest('hex')}`;
}

/**
 * Whether Meta sends this account's notices: an Instagram account or a Facebook page only once
 * it asked for them (`POST /{id}/subscribed_apps` with `comments`, `feed`: "Webhook notifications
 * will only be sent if your Page has installed your Webhooks configured-app", Webhooks for
 * Pages); a Threads user once it granted threads_read_replies (Threads webhooks page).
 */
async function notifiedFor(store: Store, account: SandboxAccount): Promise<boolean> {
  switch (account.platform) {
    case 'instagram':
      return subscribedTo(store, account.id, 'comments');
    case 'facebook':
      return subscribedTo(store, account.id, 'feed');
    case 'threads':
      return holdsLiveScope(store, account.id, 'threads_read_replies');
    default:
      return false;
  }
}

/**
 * Reports a comment just stored to the platform's subscription, if there is one: records the
 * notice (so the deliveries list it at once) and sends it in the background, so the call
 * that added the comment answers without waiting for the callback.
 */
export async function notifyCommentAdded(store: Store, comment: SandboxComment): Promise<void> {
  const post = await findPost(store, comment.postId);
  const account = post ? await findAccount(store, post.accountId) : undefined;
  if (!post || !account || !isWebhookPlatform(account.platform)) return;
  const [subscription] = await store.db
    .select()
    .from(sandboxWebhooks)
    .where(eq(sandboxWebhooks.platform, account.platform));
  if (!subscription || !(await notifiedFor(store, account))) return;
  const payload =
    account.platform === 'instagram'
      ? await instagramNotice(store, account, post, comment)
      : account.platform === 'threads'
        ? threadsNotice(store, subscription, account, post, comment)
        : facebookNotice(store, account, post, comment);
  const body = JSON.stringify(payload);
  const [delivery] = await store.db
    .insert(sandboxWebhookDeliveries)
    .values({
      platform: account.platform,
      callbackUrl: subscription.callbackUrl,
      body,
      signature: signature(body, subscription.appSecret),
      sentAt: store.now(),
    })
    .returning();
  if (delivery) setImmediate(() => void attempt(store, delivery, 0));
}

/** One attempt; a failure schedules the next one while RETRY_DELAYS_MS lasts. */
async function attempt(store: Store, delivery: SandboxWebhookDelivery, done: number): Promise<void> {
  let status: number | null = null;
  try {
    const response = await request(delivery.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': delivery.signature },
      body: delivery.body,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    status = response.statusCode;
    await response.body.dump();
  } catch {
    // No answer: recorded as status null, and tried again.
  }
  try {
    await store.db
      .update(sandboxWebhookDeliveries)
      .set({ status, attempts: done + 1 })
      .where(eq(sandboxWebhookDeliveries.id, delivery.id));
  } catch {
    // The sandbox is shutting down (its database closed): nothing more to send.
    return;
  }
  const delay = RETRY_DELAYS_MS[done];
  if ((status === null || status < 200 || status > 299) && delay !== undefined) {
    // unref: a pending retry does not keep a stopping process alive.
    setTimeout(() => void attempt(store, delivery, done + 1), delay).unref();
  }
}

/**
 * What an app's developer does once in each Meta app's dashboard, done by `npm start` in
 * sandbox mode: subscribes the service's `/platform-webhooks/<platform>` to the sandbox's
 * comment notices, signed with the secret the service's adapters use for that platform.
 */
export async function subscribeService(
  store: Store,
  service: { baseUrl: string; verifyToken: string; appSecret: (platform: WebhookPlatform) => string },
): Promise<void> {
  for (const platform of WEBHOOK_PLATFORMS) {
    await subscribe(store, platform, {
      callbackUrl: `${service.baseUrl}/platform-webhooks/${platform}`,
      verifyToken: service.verifyToken,
      appSecret: service.appSecret(platform),
    });
  }
}
