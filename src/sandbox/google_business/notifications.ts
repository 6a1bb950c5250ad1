/**
 * The Business Profile Notifications API (mybusinessnotifications.googleapis.com/v1):
 * `accounts.getNotificationSetting` and `accounts.updateNotificationSetting` (one setting per
 * account, naming one Pub/Sub topic and the kinds of notifications sent to it), and the
 * notifications themselves: a review added (NEW_REVIEW) or edited (UPDATED_REVIEW) at a location
 * of an account whose setting asks for it is published to the setting's topic (google/pubsub.ts).
 * The setting takes any well-formed topic: the sandbox has no topics or IAM, so Google's
 * PUBLISH_PERMISSIONS_MISSING_FOR_PUBSUB_TOPIC refusal is not imitated.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { googleRpc as google, googleRpcAnswer } from '../google/answers.ts';
import { publish } from '../google/pubsub.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import { type SandboxComment, sandboxNotificationSettings } from '../schema.ts';
import { findAccount } from '../store/accounts.ts';
import { findPost } from '../store/posts.ts';
import { businessCaller, platform } from './access.ts';

/** NotificationType's values, NOTIFICATION_TYPE_UNSPECIFIED aside. */
const NOTIFICATION_TYPES = new Set([
  'GOOGLE_UPDATE',
  'NEW_REVIEW',
  'UPDATED_REVIEW',
  'NEW_CUSTOMER_MEDIA',
  'NEW_QUESTION',
  'UPDATED_QUESTION',
  'NEW_ANSWER',
  'UPDATED_ANSWER',
  'DUPLICATE_LOCATION',
  'LOSS_OF_VOICE_OF_MERCHANT',
  'VOICE_OF_MERCHANT_UPDATED',
]);
/** What updateMask may name: the setting's two fields. */
const EDITABLE = new Set(['pubsubTopic', 'notificationTypes', 'pubsub_topic', 'notification_types']);
const TOPIC = /^projects\/[^/\s]+\/topics\/[^/\s]+$/;

async function settingOf(store: Store, account: string) {
  const [row] = await store.db
    .select()
    .from(sandboxNotificationSettings)
    .where(eq(sandboxNotificationSettings.account, account));
  return row;
}

function render(account: string, row: Awaited<ReturnType<typeof settingOf>>) {
  const name = `${account}/notificationSetting`;
  return row === undefined
    ? { name }
    : { name, pubsubTopic: row.pubsubTopic, notificationTypes: row.notificationTypes };
}

export function notificationRoutes(app: FastifyInstance, store: Store): void {
  const path = '/v1/accounts/:account/notificationSetting';

  /** The caller's own account the path names (`accounts/{userId}`), or Google's 404. */
  async function accountOf(request: FastifyRequest): Promise<string> {
    const who = await businessCaller(store, request);
    const { account } = request.params as { account: string };
    if (account !== who.account.id) throw google.notFound(`accounts/${account}/notificationSetting`);
    return `accounts/${account}`;
  }

  app.get(path, async (request) => {
    const account = await accountOf(request);
    return render(account, await settingOf(store, account));
  });

  app.patch(path, async (request) => {
    const account = await accountOf(request);
    const mask = (param(request, 'updateMask') ?? '').split(',').map((f) => f.trim());
    if (mask.length === 0 || mask.some((f) => !EDITABLE.has(f))) {
      throw google.badParameter(`Invalid update mask: ${JSON.stringify(param(request, 'updateMask') ?? '')}.`);
    }
    const body = (request.body ?? {}) as { name?: unknown; pubsubTopic?: unknown; notificationTypes?: unknown };
    if (body.name !== undefined && body.name !== `${account}/notificationSetting`) {
      throw google.badParameter('name does not match the path.');
    }
    const current = await settingOf(store, account);
    const topic = mask.some((f) => f.startsWith('pubsub')) ? body.pubsubTopic : current?.pubsubTopic;
    const types = mask.some((f) => f.startsWith('notification')) ? body.notificationTypes : current?.notificationTypes;
    const kinds = Array.isArray(types) ? types : [];
    if (kinds.some((t) => typeof t !== 'string' || !NOTIFICATION_TYPES.has(t))) {
      throw google.badParameter('Invalid value at notification_types.');
    }
    // "To stop receiving notifications entirely, use ... an empty notificationTypes or set the pubsubTopic to an empty string."
    if (kinds.length === 0 || topic === '' || topic === undefined) {
      await store.db.delete(sandboxNotificationSettings).where(eq(sandboxNotificationSettings.account, account));
      return render(account, undefined);
    }
    if (typeof topic !== 'string' || !TOPIC.test(topic)) {
      throw googleRpcAnswer(400, 'INVALID_PUBSUB_TOPIC', 'The pub/sub topic name supplied is invalid.');
    }
    const row = {
      account,
      pubsubTopic: topic,
      notificationTypes: [...new Set(kinds as string[])],
      updatedAt: store.now(),
    };
    await store.db
      .insert(sandboxNotificationSettings)
      .values(row)
      .onConflictDoUpdate({ target: sandboxNotificationSettings.account, set: row });
    return render(account, row);
  });
}

/**
 * Publishes a review's notification (a top-level comment of a location: NEW_REVIEW when added,
 * UPDATED_REVIEW when edited) to the topic of its account's setting, when it asks for that kind.
 * The data names the review (`reviewName`) and its location (`locationName`), as the
 * NotificationType descriptions say; the kind's field is not documented: `notificationType` here.
 */
export async function notifyReview(store: Store, review: SandboxComment, how: 'added' | 'edited'): Promise<void> {
  if (review.parentId !== null) return;
  const post = await findPost(store, review.postId);
  const location = post ? await findAccount(store, post.accountId) : undefined;
  if (location === undefined || location.platform !== platform) return;
  const account = location.id.split('/').slice(0, 2).join('/');
  const setting = await settingOf(store, account);
  const type = how === 'added' ? 'NEW_REVIEW' : 'UPDATED_REVIEW';
  if (setting === undefined || !setting.notificationTypes.includes(type)) return;
  await publish(store, platform, setting.pubsubTopic, {
    notificationType: type,
    locationName: location.id,
    reviewName: `${location.id}/reviews/${review.id}`,
  });
}
