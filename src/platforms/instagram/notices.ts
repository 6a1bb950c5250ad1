/** Instagram's comment notices (its `comments` webhook field), once Meta's signature is checked. */
import { record, str } from '../http.ts';
import { changesOf, commentNotices, verifiedMetaNotice } from '../meta/notices.ts';
import type { CommentNotice, PlatformNotice } from '../types.ts';

/**
 * Instagram's `comments` field: `value` is `{id, from{id, username}, text, media{id,
 * media_product_type}, parent_id?}` (the Instagram webhooks reference,
 * https://developers.facebook.com/docs/graph-api/webhooks/reference/instagram); `entry.id` is
 * the professional account, `entry.time` when Meta sent it. The value carries no time of the
 * comment: createdAt is null, and the comment's time is read from the Graph API.
 */
export function instagramCommentNotices(
  notice: PlatformNotice,
  secrets: readonly string[],
  received: Date,
): CommentNotice[] {
  const body = verifiedMetaNotice('instagram', notice, secrets);
  return commentNotices(changesOf(body), received, ({ entry, field, value }) => {
    if (field !== 'comments') return null;
    const account = str(entry.id);
    const id = str(value.id);
    const postId = str(record(value.media).id);
    if (account === null || id === null || postId === null) return null;
    const from = record(value.from);
    const authorId = str(from.id);
    return {
      accountPlatformUserId: account,
      comment: {
        id,
        postId,
        parentId: str(value.parent_id),
        authorId,
        authorUsername: str(from.username),
        text: str(value.text) ?? '',
        createdAt: null,
        hidden: false,
        byAccount: authorId !== null && authorId === account,
      },
    };
  });
}
