/** What YouTube asks a Google user to grant, and what each action needs of it (docs/platforms.md, "Scopes by action"). */
import type { ScopePolicy } from '../types.ts';

export const YOUTUBE_SCOPE = {
  /** "Manage your YouTube videos": videos.insert. */
  upload: 'https://www.googleapis.com/auth/youtube.upload',
  /** "See, edit, and permanently delete your YouTube videos, ratings, comments and captions": channels.list, comments. */
  forceSsl: 'https://www.googleapis.com/auth/youtube.force-ssl',
  /** "View YouTube Analytics reports for your YouTube content": reports.query. */
  analytics: 'https://www.googleapis.com/auth/yt-analytics.readonly',
} as const;

export const YOUTUBE_SCOPES: ScopePolicy = {
  // Asked for at once, the analytics scope included, so a channel connected now need not be
  // connected again when the service reads figures there.
  requested: [YOUTUBE_SCOPE.upload, YOUTUBE_SCOPE.forceSsl, YOUTUBE_SCOPE.analytics],
  // Without it the login's channels cannot be listed: there is no account to make.
  required: [YOUTUBE_SCOPE.forceSsl],
  byAction: {
    read_profile: [YOUTUBE_SCOPE.forceSsl],
    publish: [YOUTUBE_SCOPE.upload],
    // commentThreads.list, comments.insert, comments.delete, comments.setModerationStatus.
    read_comments: [YOUTUBE_SCOPE.forceSsl],
    reply: [YOUTUBE_SCOPE.forceSsl],
    delete_reply: [YOUTUBE_SCOPE.forceSsl],
    hide: [YOUTUBE_SCOPE.forceSsl],
    // reports.query.
    read_insights: [YOUTUBE_SCOPE.analytics],
  },
};
