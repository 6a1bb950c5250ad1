/** What Threads asks a user to grant, and what each action needs of it (docs/platforms.md, "Scopes by action"). */
import type { ScopePolicy } from '../types.ts';

const SCOPE = {
  basic: 'threads_basic',
  publish: 'threads_content_publish',
  readReplies: 'threads_read_replies',
  manageReplies: 'threads_manage_replies',
  insights: 'threads_manage_insights',
} as const;

export const THREADS_SCOPES: ScopePolicy = {
  requested: [SCOPE.basic, SCOPE.publish, SCOPE.readReplies, SCOPE.manageReplies, SCOPE.insights],
  required: [SCOPE.basic],
  byAction: {
    read_profile: [SCOPE.basic],
    read_comments: [SCOPE.readReplies],
    comment_notices: [SCOPE.basic, SCOPE.readReplies],
    reply: [SCOPE.publish],
    hide: [SCOPE.manageReplies],
    read_insights: [SCOPE.insights],
    publish: [SCOPE.publish],
  },
  /*
   * Meta's pages disagree on what replying needs: the Permissions reference gives
   * threads_content_publish to publishing replies, the reply management page names
   * threads_manage_replies (docs/platforms.md, "Open questions"). Both are asked at
   * connection; a refused reply names threads_manage_replies, never the publish scope that
   * posting works with.
   */
  refusedFor: { reply: [SCOPE.manageReplies] },
};
