/** Threads' reply notices (its `replies` webhook field), once Meta's signature is checked. */
import { record, str } from '../http.ts';
import { changesOf, commentNotices, timeOf, verifiedMetaNotice } from '../meta/notices.ts';
import type { CommentNotice, PlatformNotice } from '../types.ts';

/**
 * Threads' `replies` field (topic `moderate`), as its webhooks page shows it
 * (https://developers.facebook.com/docs/threads/webhooks): one reply per POST,
 * `{app_id, topic, target_id, time, subscription_id, has_uid_field, values: {value: {id,
 * username, text, media_type, permalink, replied_to{id}, root_post{id, owner_id, username},
 * shortcode, timestamp}, field: "replies"}}`. The Graph `entry[]` shapes are read too, in case
 * Threads batches them as its other webhooks do.
 */
export function threadsCommentNotices(
  notice: PlatformNotice,
  secrets: readonly string[],
  received: Date,
): CommentNotice[] {
  const body = record(verifiedMetaNotice('threads', notice, secrets));
  const changes = changesOf(body);
  const values = record(body.values);
  if (str(values.field) !== null) changes.push({ entry: body, field: str(values.field) as string, value: values });
  return commentNotices(changes, received, ({ entry, field, value: holder }) => {
    if (field !== 'replies') return null;
    // The documented shape nests the reply in `values.value`; a Graph change has it in `value`.
    const reply = record(holder.value ?? holder);
    const root = record(reply.root_post);
    // The account is the owner of the post replied under; target_id names the same user.
    const account = str(root.owner_id) ?? str(entry.target_id) ?? str(entry.id);
    const id = str(reply.id);
    const postId = str(root.id);
    if (account === null || id === null || postId === null) return null;
    const repliedTo = str(record(reply.replied_to).id);
    const username = str(reply.username);
    const ownerName = str(root.username);
    // A reply names its author's username only; the account wrote it when it is the post owner's.
    const byAccount = username !== null && ownerName !== null && username === ownerName;
    return {
      accountPlatformUserId: account,
      comment: {
        id,
        postId,
        parentId: repliedTo === null || repliedTo === postId ? null : repliedTo,
        authorId: byAccount ? account : null,
        authorUsername: username,
        text: str(reply.text) ?? '',
        createdAt: timeOf(reply.timestamp),
        hidden: false,
        byAccount,
      },
    };
  });
}
