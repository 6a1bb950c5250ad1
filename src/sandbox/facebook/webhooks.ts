/**
 * The comment webhooks Facebook sends: a page installs the app (`subscribed_apps`), then each
 * comment on its posts is reported as a Page `feed` change.
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import { unixSeconds } from '../meta/fields.ts';
import { subscribedFields } from '../meta/subscribed-apps.ts';
import type { CommentAdded, CommentNotices, Store } from '../platform.ts';
import { setAppSubscription, subscribedTo } from '../store/app-subscriptions.ts';
import { call, SCOPE, targetId } from './access.ts';

/** Page webhook fields a page can subscribe the app to (Page reference, `subscribed_apps`, a part of its list). */
const PAGE_WEBHOOK_FIELDS = [
  'feed',
  'mention',
  'name',
  'picture',
  'category',
  'description',
  'conversations',
  'messages',
  'message_echoes',
  'messaging_postbacks',
  'ratings',
  'videos',
  'live_videos',
];
/**
 * A Page's `feed` change for a comment added
 * (https://developers.facebook.com/docs/graph-api/webhooks/reference/page/#feed): a top-level
 * comment's `parent_id` is its post. Ids as the sandbox's Graph answers give them.
 */
async function notice(store: Store, { account: page, post, comment }: CommentAdded) {
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

export const commentNotices: CommentNotices = {
  // "Webhook notifications will only be sent if your Page has installed your Webhooks
  // configured-app" (Webhooks for Pages): POST /{page-id}/subscribed_apps with `feed`.
  sentFor: (store, page) => subscribedTo(store, page.id, 'feed'),
  notice,
};

export function subscriptionRoutes(app: FastifyInstance, store: Store): void {
  /*
   * A page installs the app for its webhooks: POST /{page-id}/subscribed_apps with
   * `subscribed_fields` (required) and the page's token, which needs pages_manage_metadata
   * and pages_show_list for `feed` (Page Subscribed Apps reference; Webhooks for Pages).
   * Meta sends a page's notices only once it did.
   */
  app.post('/:version/:id/subscribed_apps', async (request) => {
    const who = await caller(store, request, call);
    if (who.account.kind !== 'page') {
      throw graphAnswer(400, 210, '(#210) A page access token is required to request this resource.');
    }
    if (targetId(request, who) !== who.account.id) throw graph.notFound(targetId(request, who));
    requireScope(who, call, SCOPE.manageMetadata);
    requireScope(who, call, SCOPE.showList);
    const fields = subscribedFields(
      request,
      PAGE_WEBHOOK_FIELDS,
      (unknown) =>
        `Param subscribed_fields must be one of {${PAGE_WEBHOOK_FIELDS.join(', ')}} - got "${unknown ?? ''}"`,
    );
    await setAppSubscription(store, who.account.id, fields);
    return { success: true };
  });
}
