/** The reply notices Threads sends (topic `moderate`, field `replies`). */
import { graphTime, unixSeconds } from '../meta/fields.ts';
import type { CommentAdded, CommentNotices, Store } from '../platform.ts';
import { holdsLiveScope } from '../store/grants.ts';
import { SCOPE } from './access.ts';
import { threadsReplyPermalink } from './ids.ts';

/** Threads' `replies` notice (topic `moderate`), as https://developers.facebook.com/docs/threads/webhooks shows it. */
async function notice(store: Store, { subscription, account, post, comment }: CommentAdded) {
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

export const commentNotices: CommentNotices = {
  // Sent for a user who granted threads_read_replies (Threads webhooks page).
  sentFor: (store, account) => holdsLiveScope(store, account.id, SCOPE.readReplies),
  notice,
};
