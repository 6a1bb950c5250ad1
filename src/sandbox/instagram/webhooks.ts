/**
 * The comment webhooks Instagram sends: an account asks for them (`subscribed_apps`), then
 * each comment on its posts is reported in Instagram Login's shape.
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { graph } from '../meta/errors.ts';
import { unixSeconds } from '../meta/fields.ts';
import { subscribedFields } from '../meta/subscribed-apps.ts';
import type { CommentAdded, CommentNotices, Store } from '../platform.ts';
import { setAppSubscription, subscribedTo } from '../store/app-subscriptions.ts';
import { oneOf } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { call, SCOPE } from './access.ts';
import { instagramScopedId } from './ids.ts';
import { productType } from './media.ts';

/**
 * The notices' shape: `entry` (`field`/`value` on the entry, as the Instagram Login examples
 * show them) or `changes` (nested in `entry[].changes[]`, Facebook Login's).
 */
export const WEBHOOK_SHAPE = oneOf('instagram_webhook_shape', ['entry', 'changes']);

/** Instagram Login's webhook fields, each with the permission it needs (Instagram webhooks page). */
const WEBHOOK_FIELDS: Record<string, string> = {
  comments: SCOPE.comments,
  live_comments: SCOPE.comments,
  mentions: SCOPE.comments,
  messages: 'instagram_business_manage_messages',
  message_edit: 'instagram_business_manage_messages',
  message_reactions: 'instagram_business_manage_messages',
  messaging_handover: 'instagram_business_manage_messages',
  messaging_optins: 'instagram_business_manage_messages',
  messaging_postbacks: 'instagram_business_manage_messages',
  messaging_referral: 'instagram_business_manage_messages',
  messaging_seen: 'instagram_business_manage_messages',
  standby: 'instagram_business_manage_messages',
};

/**
 * Instagram Login's `comments` notice (https://developers.facebook.com/docs/instagram-platform/webhooks/examples):
 * `field` and `value` on the entry as the examples show it, or (setting
 * `instagram_webhook_shape: changes`) nested in `changes[]` as Facebook Login's notices are.
 */
async function notice(store: Store, { account, post, comment }: CommentAdded) {
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
  const shape = await getSetting(store, WEBHOOK_SHAPE);
  return {
    object: 'instagram',
    entry: [shape === 'changes' ? { ...entry, changes: [change] } : { ...entry, ...change }],
  };
}

export const commentNotices: CommentNotices = {
  // Only once the account asked for them: POST /me/subscribed_apps with `comments`.
  sentFor: (store, account) => subscribedTo(store, account.id, 'comments'),
  notice,
};

export function subscriptionRoutes(app: FastifyInstance, store: Store): void {
  /*
   * "Enable Subscriptions": POST /me/subscribed_apps with `subscribed_fields`, the user's
   * token; `comments` needs instagram_business_manage_comments, the messaging fields
   * instagram_business_manage_messages (Instagram webhooks page). Meta then sends the
   * account's notices; it sends none before.
   */
  app.post('/:version/:id/subscribed_apps', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.basic);
    const { id } = request.params as { id: string };
    if (id !== 'me' && id !== who.account.id) throw graph.notFound(id);
    const known = Object.keys(WEBHOOK_FIELDS);
    const fields = subscribedFields(
      request,
      known,
      (unknown) => `subscribed_fields must be a list of: ${known.join(', ')} (got ${unknown ?? 'none'})`,
    );
    for (const field of fields) requireScope(who, call, WEBHOOK_FIELDS[field] as string);
    await setAppSubscription(store, who.account.id, fields);
    return { success: true };
  });
}
