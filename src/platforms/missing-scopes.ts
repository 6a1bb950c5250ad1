/** The missing-scopes wrapper every adapter goes through. */
import { type PlatformAction, type PlatformAdapter, PlatformError } from './types.ts';

/**
 * The adapter, with every `permission_missing` of a method that acts for a known action
 * carrying `detail.missingScopes`: the scopes that action needs on the platform
 * (ScopePolicy.refusedFor, else byAction), so the account's recorded permissions can drop them. A
 * platform's refusal rarely names the scope, and a grant may change after the connection
 * (a user removing one permission on the platform). An inner call's own answer wins
 * (Instagram's insights read the profile for the followers count).
 */
export function reportingMissingScopes(adapter: PlatformAdapter): PlatformAdapter {
  async function acting<T>(action: PlatformAction, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const needed = adapter.scopes.refusedFor?.[action] ?? adapter.scopes.byAction[action];
      if (
        !(error instanceof PlatformError) ||
        error.kind !== 'permission_missing' ||
        needed === undefined ||
        error.detail.missingScopes !== undefined
      ) {
        throw error;
      }
      throw new PlatformError(error.kind, error.message, { ...error.detail, missingScopes: [...needed] });
    }
  }
  const { comments, insights, publishing } = adapter;
  const { afterPublish } = publishing;
  const createCarouselItems = publishing.createCarouselItems?.bind(publishing);
  const withdraw = publishing.withdraw?.bind(publishing);
  const { finishReply } = comments ?? {};
  return {
    ...adapter,
    profile: (credentials) => acting('read_profile', () => adapter.profile(credentials)),
    ...(comments && {
      comments: {
        ...comments,
        recentComments: (credentials, options) =>
          acting('read_comments', () => comments.recentComments(credentials, options)),
        postSummary: (credentials, postId) => acting('read_comments', () => comments.postSummary(credentials, postId)),
        subscribeNotices: (credentials) => acting('comment_notices', () => comments.subscribeNotices(credentials)),
        commentTimes: (credentials, commentIds) =>
          acting('read_comments', () => comments.commentTimes(credentials, commentIds)),
        reply: (credentials, commentId, text) => acting('reply', () => comments.reply(credentials, commentId, text)),
        ...(finishReply && {
          finishReply: (credentials, containerId) => acting('reply', () => finishReply(credentials, containerId)),
        }),
        setHidden: (credentials, commentId, hidden) =>
          acting('hide', () => comments.setHidden(credentials, commentId, hidden)),
      },
    }),
    ...(insights && {
      insights: {
        accountInsights: (credentials, days, metrics) =>
          acting('read_insights', () => insights.accountInsights(credentials, days, metrics)),
        postInsights: (credentials, postId, metrics) =>
          acting('read_insights', () => insights.postInsights(credentials, postId, metrics)),
      },
    }),
    publishing: {
      ...publishing,
      ...(createCarouselItems && {
        createCarouselItems: (credentials, request) =>
          acting('publish', () => createCarouselItems(credentials, request)),
      }),
      createContainer: (credentials, request, itemContainerIds) =>
        acting('publish', () => publishing.createContainer(credentials, request, itemContainerIds)),
      containerStatus: (credentials, containerId, expected) =>
        acting('publish', () => publishing.containerStatus(credentials, containerId, expected)),
      publishContainer: (credentials, containerId, progress) =>
        acting('publish', () => publishing.publishContainer(credentials, containerId, progress)),
      publishingQuota: (credentials) => acting('publish', () => publishing.publishingQuota(credentials)),
      findPublished: (credentials, containerId) =>
        acting('publish', () => publishing.findPublished(credentials, containerId)),
      ...(withdraw && {
        withdraw: (credentials, containerId) => acting('publish', () => withdraw(credentials, containerId)),
      }),
      ...(afterPublish && {
        afterPublish: {
          ...afterPublish,
          run: (credentials, postId, options) =>
            acting(afterPublish.action, () => afterPublish.run(credentials, postId, options)),
        },
      }),
    },
  };
}
