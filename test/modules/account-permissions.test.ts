import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../src/clock.ts';
import { noteAccountFailure } from '../../src/modules/accounts/access.ts';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { commentsOf, insightsOf, platformError, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

/**
 * Threads does not say which permissions a user ticked unless a tester's token asks it
 * (debug_token). Without THREADS_TESTER_TOKEN the service records the permissions it asked
 * for, and learns from the platform's refusals which the user left out.
 */

let t: TestApp;
let sandbox: TestSandbox;
let owner: TestOwner;

beforeAll(async () => {
  t = await startTestApp();
  sandbox = await startSandbox();
  owner = await t.createOwner();
});
afterAll(async () => {
  await sandbox.close();
  await t.close();
});

async function permissionsOf(accountId: string): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/accounts/${accountId}`, headers: auth(owner.key) });
  expect(res.statusCode).toBe(200);
  return res.json().permissions;
}

describe("an account's recorded permissions", () => {
  it('stop claiming a scope the platform refused a call for lack of', async () => {
    // The user leaves threads_manage_insights unticked on Threads' permission page.
    const granted = ['threads_basic', 'threads_content_publish', 'threads_read_replies', 'threads_manage_replies'];
    const tokens = await sandbox.connect('threads', 'no_insights', granted);
    const credentials = { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken };
    const profile = await sandbox.adapter('threads').profile(credentials);
    const { account } = await t.database.db.transaction((tx) =>
      saveConnectedAccount(tx, t.secretKey, {
        ownerId: owner.ownerId,
        profileId: owner.defaultProfileId,
        platform: 'threads',
        tokens,
        profile,
      }),
    );
    // Without a tester token the exchange cannot tell: the service records what it asked for.
    expect(await permissionsOf(account.id)).toEqual([...granted, 'threads_manage_insights']);

    const day = now().toISOString().slice(0, 10);
    const refused = await platformError(
      insightsOf(sandbox.adapter('threads')).accountInsights(credentials, [day], ['views']),
    );
    expect(refused.kind).toBe('permission_missing');
    expect(refused.detail.missingScopes).toEqual(['threads_manage_insights']);

    const updated = await t.database.db.transaction((tx) => noteAccountFailure(tx, account.id, refused, undefined));
    expect(updated?.status).toBe('connected');
    expect(await permissionsOf(account.id)).toEqual(granted);
    // Learned once: the same refusal again changes nothing.
    expect(await t.database.db.transaction((tx) => noteAccountFailure(tx, account.id, refused, undefined))).toBeNull();
    expect(await permissionsOf(account.id)).toEqual(granted);
  });

  it('keep the publish permission when Threads refuses a reply, naming threads_manage_replies instead', async () => {
    // Ticked: everything but threads_manage_replies, which one of Meta's pages says replying needs.
    const granted = ['threads_basic', 'threads_content_publish', 'threads_read_replies', 'threads_manage_insights'];
    const tokens = await sandbox.connect('threads', 'no_manage_replies', granted);
    const credentials = { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken };
    const threads = sandbox.adapter('threads');
    const { account } = await t.database.db.transaction(async (tx) =>
      saveConnectedAccount(tx, t.secretKey, {
        ownerId: owner.ownerId,
        profileId: owner.defaultProfileId,
        platform: 'threads',
        tokens,
        profile: await threads.profile(credentials),
      }),
    );
    const [comment] = (await commentsOf(threads).recentComments(credentials)).comments;
    const refused = await platformError(commentsOf(threads).reply(credentials, comment?.id as string, 'Thanks!'));
    expect(refused).toMatchObject({
      kind: 'permission_missing',
      detail: { missingScopes: ['threads_manage_replies'] },
    });
    await t.database.db.transaction((tx) => noteAccountFailure(tx, account.id, refused, undefined));
    expect(await permissionsOf(account.id)).toEqual(granted);
    // Publishing, which needs only threads_content_publish, still works.
    const { containerId } = await threads.publishing.createContainer(credentials, { text: 'Still posting', media: [] });
    expect(containerId).toMatch(/^\d+/);
  });
});
