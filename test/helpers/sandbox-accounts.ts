import pino from 'pino';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { subscribeCommentNotices } from '../../src/modules/accounts/notice-subscriptions.ts';
import type { Platform } from '../../src/platforms/index.ts';
import type { TestApp, TestOwner } from './app.ts';
import { pagesOf, type TestSandbox } from './sandbox.ts';

export interface SandboxAccount {
  /** The service's account id. */
  id: string;
  /** The account's username as the platform reports it (a Facebook page's). */
  username: string;
  /** The sandbox user the account acts as (`<user>.page1` for a Facebook user's first page). */
  sandboxUser: string;
  platformUserId: string;
}

/**
 * A new sandbox user of `platform` that granted `granted` (default every scope), stored as
 * the connect flow stores an account of `owner` in `profileId` (default its default
 * profile), and subscribed to its comment notices as the job queued by the connection does
 * (here at once, so a comment made right after reaches the service); where a login grants pages, the user's
 * first page.
 */
export async function connectSandboxAccount(
  t: TestApp,
  sandbox: TestSandbox,
  owner: TestOwner,
  platform: Platform,
  username: string,
  /**
   * `subscribe: false` leaves the subscription to comment notices to the job the connection queued.
   * `member: true` (LinkedIn) connects the member's own profile, which a login granting
   * w_member_social offers first, rather than their first organization.
   */
  options: { granted?: string[]; profileId?: string; subscribe?: boolean; member?: boolean } = {},
): Promise<SandboxAccount> {
  const adapter = sandbox.adapter(platform);
  let tokens = await sandbox.connect(platform, username, options.granted);
  if (adapter.pages !== undefined) {
    const credentials = { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken };
    const [page] = await pagesOf(adapter)(credentials, options.member === true ? tokens.scopes : []);
    if (!page) throw new Error('the sandbox user has no page');
    // A Facebook page has a token of its own, which does not expire; a LinkedIn organization is acted on with the login's.
    tokens =
      page.accessToken === null
        ? { ...tokens, platformUserId: page.id }
        : { ...tokens, accessToken: page.accessToken, platformUserId: page.id, expiresAt: null };
  }
  const profile = await adapter.profile({ platformUserId: tokens.platformUserId, accessToken: tokens.accessToken });
  const { account } = await t.database.db.transaction((tx) =>
    saveConnectedAccount(tx, t.secretKey, {
      ownerId: owner.ownerId,
      profileId: options.profileId ?? owner.defaultProfileId,
      platform,
      tokens,
      profile,
    }),
  );
  if (options.subscribe !== false) {
    await subscribeCommentNotices(
      { db: t.database.db, platforms: sandbox.platforms, secretKey: t.secretKey, log: pino({ level: 'silent' }) },
      account.id,
    );
  }
  return {
    id: account.id,
    username: profile.username ?? username,
    sandboxUser: platform === 'facebook' ? `${username}.page1` : username,
    platformUserId: tokens.platformUserId,
  };
}

/**
 * Sets a metric's figures on the sandbox platform (docs/sandbox.md, `PUT /insights`): an
 * account's days, or a post's lifetime figure with `postId`; each value on its `YYYY-MM-DD` day,
 * null for no data.
 */
export async function setSandboxFigures(
  sandbox: TestSandbox,
  platform: Platform,
  account: SandboxAccount,
  metric: string,
  values: readonly [string, number | null][],
  postId?: string,
): Promise<void> {
  const res = await sandbox.control('PUT', '/insights', {
    platform,
    username: account.sandboxUser,
    metric,
    ...(postId === undefined ? {} : { post_id: postId }),
    values: values.map(([day, value]) => ({ day, value })),
  });
  if (res.status !== 200) throw new Error(`the sandbox refused the figures: ${JSON.stringify(res.body)}`);
}
