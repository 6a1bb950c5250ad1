/**
 * The sandbox sends comment webhooks as Meta does: an app subscribes a callback to a platform
 * (verified first with Meta's `hub.challenge` handshake), and every comment added there is
 * POSTed to it in the platform's own shape (its part's CommentNotices), signed
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body under the app secret>`.
 * A notice that fails (non-2xx or no answer) is tried again a few times (RETRY_DELAYS_MS);
 * Meta keeps trying for up to 36 hours, which a sandbox has no reason to imitate.
 * docs/sandbox.md, "Webhooks".
 */
import { createHmac, randomInt } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { request } from 'undici';
import { platformPart, type Store } from './platform.ts';
import {
  type SandboxComment,
  type SandboxWebhook,
  type SandboxWebhookDelivery,
  sandboxWebhookDeliveries,
  sandboxWebhooks,
} from './schema.ts';
import { findAccount } from './store/accounts.ts';
import { numericId } from './store/ids.ts';
import { findPost } from './store/posts.ts';

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
  platform: string,
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

export async function unsubscribe(store: Store, platform: string): Promise<boolean> {
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

export function signature(body: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body, 'utf8').digest('hex')}`;
}

/**
 * Reports a comment just stored to the platform's subscription, if there is one: records the
 * notice (so the deliveries list it at once) and sends it in the background, so the call
 * that added the comment answers without waiting for the callback.
 */
export async function notifyCommentAdded(store: Store, comment: SandboxComment): Promise<void> {
  const post = await findPost(store, comment.postId);
  const account = post ? await findAccount(store, post.accountId) : undefined;
  if (!post || !account) return;
  const notices = platformPart(store, account.platform).webhooks;
  if (notices === null) return;
  const [subscription] = await store.db
    .select()
    .from(sandboxWebhooks)
    .where(eq(sandboxWebhooks.platform, account.platform));
  if (!subscription || !(await notices.sentFor(store, account))) return;
  const body = JSON.stringify(await notices.notice(store, { subscription, account, post, comment }));
  await deliver(store, {
    platform: account.platform,
    callbackUrl: subscription.callbackUrl,
    body,
    signature: signature(body, subscription.appSecret),
  });
}

/**
 * Records a notice (so the deliveries list it at once) and sends it in the background, so the
 * call that caused it answers without waiting for the callback: signed with
 * `X-Hub-Signature-256` (Meta's), or carrying an `Authorization` (a Pub/Sub push's token).
 */
export async function deliver(
  store: Store,
  notice: { platform: string; callbackUrl: string; body: string } & ({ signature: string } | { authorization: string }),
): Promise<void> {
  const [delivery] = await store.db
    .insert(sandboxWebhookDeliveries)
    .values({
      platform: notice.platform,
      callbackUrl: notice.callbackUrl,
      body: notice.body,
      signature: 'signature' in notice ? notice.signature : '',
      authorization: 'authorization' in notice ? notice.authorization : null,
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
      headers: {
        'content-type': 'application/json',
        ...(delivery.authorization === null
          ? { 'x-hub-signature-256': delivery.signature }
          : { authorization: delivery.authorization }),
      },
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
