/** How the API (and the `account.*` events) show an account: the schema and the one function that renders a row to it. */
import { type Static, Type } from 'typebox';
import { At } from '../../http/schemas.ts';
import { PLATFORMS } from '../../platforms/index.ts';
import { NOTHING_AT_RISK, type PostsAtRisk } from './posts-at-risk.ts';
import { ACCOUNT_STATUSES, type Account } from './tables.ts';

export const PlatformValue = Type.Enum(PLATFORMS, { description: `The platform: ${PLATFORMS.join(', ')}.` });
export const AccountStatusValue = Type.Enum(ACCOUNT_STATUSES, {
  description:
    'connected: usable; expired: access ended on its own, reconnect it; disconnected: disconnected in the service or on the platform, its tokens are deleted, reconnect it to use it again.',
});
/** The path parameter of a route about one account. */
export const AccountParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'Account id, `acc_...`.' }),
});

const NullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const AccountJson = Type.Object(
  {
    id: Type.String({ description: 'Account id, `acc_...`.' }),
    profile_id: Type.String({ description: 'The profile the account belongs to (its id, never the external_id).' }),
    platform: PlatformValue,
    platform_user_id: Type.String({ description: "The account's id on the platform." }),
    username: NullableText('The handle on the platform, when it has one.'),
    display_name: NullableText('The name shown on the platform.'),
    avatar_url: NullableText('Profile picture URL, as the platform gave it (it may expire).'),
    status: AccountStatusValue,
    permissions: Type.Array(Type.String(), {
      description: 'The scopes granted on the platform, as the platform names them.',
    }),
    notices: Type.Union([Type.Literal('subscribed'), Type.Literal('polling_only'), Type.Null()], {
      description:
        'How new comments reach the service: `subscribed`, the platform sends a notice of each as it is made (and the poll every 15 minutes is the safety net); `polling_only`, only the poll finds them: the subscription is being made (right after a connection), being tried again after a passing failure, or was refused (see `notices_error`; reconnect the account to try again), or the platform sends none (LinkedIn, YouTube, X, Bluesky; Google Business Profile where the deployment sets no Pub/Sub topic). Null on a platform whose comments the service does not read (TikTok, Pinterest).',
    }),
    notices_error: NullableText(
      "Why the platform refused (or has not yet accepted) the subscription to comment notices, in the platform's words; null when subscribed.",
    ),
    connected_at: At('When the account was last connected or reconnected.'),
    created_at: At('When the account was first connected.'),
    updated_at: At('When the account last changed (status, tokens, profile).'),
    posts_at_risk: Type.Union(
      [
        Type.Object(
          {
            count: Type.Integer({
              description:
                'Posts waiting to be published on the account (awaiting approval, scheduled or being published).',
            }),
            next_scheduled_at: Type.Union([At('When the first of them is due.'), Type.Null()], {
              description: 'When the first of them is due; null when none waits.',
            }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description:
          'While the account is `expired` or `disconnected`: what that puts at risk, the posts waiting to be published on it, which fail unless it is reconnected (POST /v1/accounts/{id}/reconnect-links). Null while it is `connected`.',
      },
    ),
  },
  { $id: 'Account', title: 'Account' },
);

export type AccountJson = Static<typeof AccountJson>;

/** `posts_at_risk` as the API and the events show it: the count and the first due (the ids, in events, beside it). */
export function renderRisk(risk: PostsAtRisk): { count: number; next_scheduled_at: string | null } {
  return { count: risk.count, next_scheduled_at: risk.nextScheduledAt };
}

/**
 * An account as the API shows it. `risk`: what its end of access puts at risk, required for an
 * account that is not connected (a connected one shows none).
 */
export function renderAccount(a: Account, risk: PostsAtRisk | null): AccountJson {
  return {
    id: a.id,
    profile_id: a.profileId,
    // Written only from a Platform (saveConnectedAccount).
    platform: a.platform,
    platform_user_id: a.platformUserId,
    username: a.username,
    display_name: a.displayName,
    avatar_url: a.avatarUrl,
    status: a.status,
    permissions: a.scopes,
    notices: a.commentNotices === null ? null : a.commentNotices === 'subscribed' ? 'subscribed' : 'polling_only',
    notices_error: a.commentNoticesError,
    connected_at: a.connectedAt.toISOString(),
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
    posts_at_risk: a.status === 'connected' ? null : renderRisk(risk ?? NOTHING_AT_RISK),
  };
}
