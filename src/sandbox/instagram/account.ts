/**
 * The Instagram professional account itself: its profile (`/me`), and the webhook fields it
 * asks the app's notices for (`subscribed_apps`).
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { graph } from '../meta/errors.ts';
import { checkVersion, pick, requestedFields } from '../meta/fields.ts';
import { subscribedFields } from '../meta/subscribed-apps.ts';
import type { Store } from '../platform.ts';
import { setAppSubscription } from '../store/app-subscriptions.ts';
import { call, SCOPE } from './access.ts';
import { instagramAppScopedId } from './ids.ts';

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

export function accountRoutes(app: FastifyInstance, store: Store): void {
  app.get('/:version/me', async (request) => {
    checkVersion(request);
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.basic);
    const a = who.account;
    // "id: The app user's app-scoped ID"; "user_id: The Instagram professional acount ID,
    // <IG_ID> ... This ID is value of the id field received in webhook notifications" (Get Started).
    return pick(
      {
        id: instagramAppScopedId(a.id),
        user_id: a.id,
        username: a.username,
        name: a.name,
        account_type: 'BUSINESS',
        profile_picture_url: a.avatarUrl,
        followers_count: a.followersCount,
        media_count: 0,
      },
      requestedFields(request, ['id']),
    );
  });

  /*
   * "Enable Subscriptions": POST /me/subscribed_apps with `subscribed_fields`, the user's
   * token; `comments` needs instagram_business_manage_comments, the messaging fields
   * instagram_business_manage_messages (Instagram webhooks page). Meta then sends the
   * account's notices; it sends none before.
   */
  app.post('/:version/:id/subscribed_apps', async (request) => {
    checkVersion(request);
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
