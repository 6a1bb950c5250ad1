/** A page's comment notices (its `feed` webhook field, comments added), once Meta's signature is checked. */
import { record, str } from '../http.ts';
import { changesOf, commentNotices, timeOf, verifiedMetaNotice } from '../meta/notices.ts';
import type { CommentNotice, PlatformNotice } from '../types.ts';

/**
 * A Page's `feed` field, comments added only (`item: "comment"`, `verb: "add"`): `value` is
 * `{from{id, name}, post_id, comment_id, parent_id, message, created_time, item, verb, post?}`
 * (Page webhooks reference, https://developers.facebook.com/docs/graph-api/webhooks/reference/page/#feed).
 * A top-level comment's `parent_id` is its post.
 */
export function facebookCommentNotices(
  notice: PlatformNotice,
  secrets: readonly string[],
  received: Date,
): CommentNotice[] {
  const body = verifiedMetaNotice('facebook', notice, secrets);
  return commentNotices(changesOf(body), received, ({ entry, field, value }) => {
    if (field !== 'feed' || value.item !== 'comment' || value.verb !== 'add') return null;
    const page = str(entry.id);
    const id = str(value.comment_id);
    const postId = str(value.post_id);
    if (page === null || id === null || postId === null) return null;
    const from = record(value.from);
    const authorId = str(from.id);
    const parent = str(value.parent_id);
    return {
      accountPlatformUserId: page,
      comment: {
        id,
        postId,
        parentId: parent === null || parent === postId ? null : parent,
        authorId,
        authorUsername: str(from.name),
        text: str(value.message) ?? '',
        createdAt: timeOf(value.created_time),
        hidden: value.is_hidden === true,
        byAccount: authorId !== null && authorId === page,
      },
    };
  });
}
