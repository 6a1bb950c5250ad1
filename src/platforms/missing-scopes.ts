/** The missing-scopes wrapper every adapter goes through. */
import {
  type AccountCredentials,
  type PlatformAction,
  type PlatformAdapter,
  PlatformError,
  scopesFor,
} from './types.ts';

/**
 * The adapter, with every `permission_missing` of a method that acts for a known action
 * carrying `detail.missingScopes`: the scopes that action needs on the platform
 * (ScopePolicy.refusedFor, else byAction), so the account's recorded permissions can drop them. A
 * platform's refusal rarely names the scope, and a grant may change after the connection
 * (a user removing one permission on the platform). An inner call's own answer wins
 * (Instagram's insights read the profile for the followers count).
 */
export function reportingMissingScopes(adapter: PlatformAdapter): PlatformAdapter {
  async function acting<T>(
    action: PlatformAction,
    call: () => Promise<T>,
    { platformUserId }: Pick<AccountCredentials, 'platformUserId'>,
  ): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const needed = adapter.scopes.refusedFor?.[action] ?? scopesFor(adapter, action, platformUserId);
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
  const { optionValues } = publishing;
  const withdraw = publishing.withdraw?.bind(publishing);
  const { finishReply, deleteReply, readComments } = comments ?? {};
  return {
    ...adapter,
    profile: (credentials) => acting('read_profile', () => adapter.profile(credentials), credentials),
    ...(comments && {
      comments: {
        ...comments,
        recentComments: (credentials, options) =>
          acting('read_comments', () => comments.recentComments(credentials, options), credentials),
        postSummary: (credentials, postId) =>
          acting('read_comments', () => comments.postSummary(credentials, postId), credentials),
        subscribeNotices: (credentials) =>
          acting('comment_notices', () => comments.subscribeNotices(credentials), credentials),
        commentTimes: (credentials, commentIds) =>
          acting('read_comments', () => comments.commentTimes(credentials, commentIds), credentials),
        ...(readComments && {
          readComments: (credentials, commentIds) =>
            acting('read_comments', () => readComments(credentials, commentIds), credentials),
        }),
        reply: (credentials, commentId, text) =>
          acting('reply', () => comments.reply(credentials, commentId, text), credentials),
        ...(finishReply && {
          finishReply: (credentials, containerId) =>
            acting('reply', () => finishReply(credentials, containerId), credentials),
        }),
        ...(deleteReply && {
          deleteReply: (credentials, replyId, parentId) =>
            acting('delete_reply', () => deleteReply(credentials, replyId, parentId), credentials),
        }),
        setHidden: (credentials, commentId, hidden) =>
          acting('hide', () => comments.setHidden(credentials, commentId, hidden), credentials),
      },
    }),
    ...(insights && {
      insights: {
        accountInsights: (credentials, days, metrics) =>
          acting('read_insights', () => insights.accountInsights(credentials, days, metrics), credentials),
        postInsights: (credentials, postId, metrics) =>
          acting('read_insights', () => insights.postInsights(credentials, postId, metrics), credentials),
      },
    }),
    publishing: {
      ...publishing,
      ...(createCarouselItems && {
        createCarouselItems: (credentials, request) =>
          acting('publish', () => createCarouselItems(credentials, request), credentials),
      }),
      createContainer: (credentials, request, itemContainerIds) =>
        acting('publish', () => publishing.createContainer(credentials, request, itemContainerIds), credentials),
      containerStatus: (credentials, containerId, expected) =>
        acting('publish', () => publishing.containerStatus(credentials, containerId, expected), credentials),
      publishContainer: (credentials, containerId, progress) =>
        acting('publish', () => publishing.publishContainer(credentials, containerId, progress), credentials),
      publishingQuota: (credentials) => acting('publish', () => publishing.publishingQuota(credentials), credentials),
      findPublished: (credentials, containerId) =>
        acting('publish', () => publishing.findPublished(credentials, containerId), credentials),
      ...(withdraw && {
        withdraw: (credentials, containerId) =>
          acting('publish', () => withdraw(credentials, containerId), credentials),
      }),
      // An option's values are read to publish with them (a Pinterest board for a pin).
      ...(optionValues && {
        optionValues: Object.fromEntries(
          Object.entries(optionValues).map(([option, list]) => [
            option,
            (credentials: AccountCredentials) => acting('publish', () => list(credentials), credentials),
          ]),
        ),
      }),
      ...(afterPublish && {
        afterPublish: {
          ...afterPublish,
          run: (credentials, postId, options) =>
            acting(afterPublish.action, () => afterPublish.run(credentials, postId, options), credentials),
        },
      }),
    },
  };
}
