/** What X asks a user to grant, and what each action needs of it (docs/platforms.md, "X", "Scopes by action"). */
import type { ScopePolicy } from '../types.ts';

export const X_SCOPE = {
  /** Reading posts: every call that returns posts needs it beside the others. */
  tweetRead: 'tweet.read',
  /** Creating posts and replies. */
  tweetWrite: 'tweet.write',
  /** Hiding and unhiding replies to the user's posts. */
  tweetModerate: 'tweet.moderate.write',
  /** The user's own profile (`GET /2/users/me`). */
  usersRead: 'users.read',
  /** A refresh token: without it the access token ends after two hours for good. */
  offlineAccess: 'offline.access',
  /** Uploading images and videos (the v2 media upload). */
  mediaWrite: 'media.write',
} as const;

export const X_SCOPES: ScopePolicy = {
  requested: [
    X_SCOPE.tweetRead,
    X_SCOPE.tweetWrite,
    X_SCOPE.usersRead,
    X_SCOPE.offlineAccess,
    X_SCOPE.mediaWrite,
    X_SCOPE.tweetModerate,
  ],
  // Without the user's profile there is no account; without offline.access it would end in two hours.
  required: [X_SCOPE.tweetRead, X_SCOPE.usersRead, X_SCOPE.offlineAccess],
  byAction: {
    read_profile: [X_SCOPE.tweetRead, X_SCOPE.usersRead],
    // User posts timeline and search: tweet.read and users.read.
    read_comments: [X_SCOPE.tweetRead, X_SCOPE.usersRead],
    // A reply is a post.
    reply: [X_SCOPE.tweetRead, X_SCOPE.tweetWrite, X_SCOPE.usersRead],
    // Delete Post: tweet.read, tweet.write and users.read.
    delete_reply: [X_SCOPE.tweetRead, X_SCOPE.tweetWrite, X_SCOPE.usersRead],
    // Hide replies: tweet.moderate.write.
    hide: [X_SCOPE.tweetModerate],
    // Users lookup and Posts lookup: tweet.read and users.read.
    read_insights: [X_SCOPE.tweetRead, X_SCOPE.usersRead],
    publish: [X_SCOPE.tweetRead, X_SCOPE.tweetWrite, X_SCOPE.usersRead],
  },
};
