/** How a post's status and the client's decision read, in the posts list, the calendar and a post's screen. */
import type { Post, PostStatus } from './resources.ts';
import { Badge } from './ui.tsx';

export const POST_TONES: Record<PostStatus, 'good' | 'bad' | 'warn' | 'neutral'> = {
  draft: 'neutral',
  awaiting_approval: 'warn',
  scheduled: 'neutral',
  publishing: 'warn',
  published: 'good',
  partially_published: 'warn',
  failed: 'bad',
  cancelled: 'neutral',
};

/** A status as a person reads it: `awaiting_approval` as "awaiting approval". */
export function statusLabel(status: string): string {
  return status.replaceAll('_', ' ');
}

/** The client's decision as a person reads it. */
export const APPROVAL_LABELS = {
  pending: 'approval pending',
  approved: 'approved by the client',
  changes_requested: 'changes requested',
} as const;

export const APPROVAL_TONES = { pending: 'warn', approved: 'good', changes_requested: 'bad' } as const;

/** The post's status, and beside it the client's decision when it asked for changes. */
export function PostBadges({ post }: { post: Post }) {
  return (
    <>
      <Badge value={statusLabel(post.status)} tone={POST_TONES[post.status]} />
      {post.approval?.status === 'changes_requested' ? (
        <>
          {' '}
          <Badge value={APPROVAL_LABELS.changes_requested} tone={APPROVAL_TONES.changes_requested} />
        </>
      ) : null}
    </>
  );
}
