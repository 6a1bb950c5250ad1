import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { type Platform, SANDBOX_CLIENT } from '../../src/platforms/index.ts';
import { startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { accounts, events } from '../helpers/tables.ts';

/** Platforms telling the service that a user removed the app, signed as they sign them. */

let t: TestApp;
let a: TestOwner;
let b: TestOwner;
const SECRET = SANDBOX_CLIENT.clientSecret;
/** The Meta app's secret, which the service is told of: Meta's pages do not say which app's secret signs. */
const META_APP_SECRET = 'meta-app-secret-1';

async function account(owner: TestOwner, platform: Platform, platformUserId: string, aliases?: string[]) {
  const { account } = await t.database.db.transaction((tx) =>
    saveConnectedAccount(tx, t.secretKey, {
      ownerId: owner.ownerId,
      profileId: owner.defaultProfileId,
      platform,
      tokens: {
        accessToken: `token-${platformUserId}`,
        expiresAt: null,
        platformUserId,
        scopes: [],
        ...(aliases ? { aliases } : {}),
      },
      profile: { id: platformUserId, username: platformUserId, name: null, avatarUrl: null, followersCount: null },
    }),
  );
  return account.id;
}

async function reload(id: string) {
  const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

function signedRequest(payload: Record<string, unknown>, secret = SECRET): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = createHmac('sha256', secret).update(body).digest('base64url');
  return new URLSearchParams({ signed_request: `${signature}.${body}` }).toString();
}

async function notify(platform: string, body: string, headers: Record<string, string> = {}) {
  return await t.app.inject({
    method: 'POST',
    url: `/platforms/${platform}/deauthorize`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: body,
  });
}

function tiktok(event: Record<string, unknown>, at = Math.floor(Date.now() / 1000), secret = SECRET) {
  const body = JSON.stringify(event);
  const s = createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  return { body, headers: { 'content-type': 'application/json', 'tiktok-signature': `t=${at},s=${s}` } };
}

beforeAll(async () => {
  t = await startTestApp({ INSTAGRAM_META_APP_SECRET: META_APP_SECRET, THREADS_META_APP_SECRET: META_APP_SECRET });
  a = await t.createOwner();
  b = await t.createOwner();
});
afterAll(() => t.close());

describe('app removal notices', () => {
  it("Instagram's signed deauthorize callback disconnects that user's accounts of every owner", async () => {
    const ids = [await account(a, 'instagram', '1789'), await account(b, 'instagram', '1789')];
    const bystander = await account(a, 'instagram', '2000');
    const res = await notify('instagram', signedRequest({ algorithm: 'HMAC-SHA256', issued_at: 1, user_id: '1789' }));
    expect(res.statusCode).toBe(200);
    for (const id of ids) {
      const row = await reload(id);
      expect(row?.status).toBe('disconnected');
      expect(row?.accessTokenSealed).toBeNull();
      const emitted = await t.database.db.select().from(events).where(eq(events.type, 'account.disconnected'));
      expect(emitted.filter((e) => (e.data as { account: { id: string } }).account.id === id)).toHaveLength(1);
    }
    expect((await reload(bystander))?.status).toBe('connected');
    // The same notice again changes nothing more.
    const again = await notify('instagram', signedRequest({ algorithm: 'HMAC-SHA256', issued_at: 1, user_id: '1789' }));
    expect(again.statusCode).toBe(200);
    const emitted = await t.database.db.select().from(events).where(eq(events.type, 'account.disconnected'));
    expect(emitted).toHaveLength(2);
  });

  it('an Instagram deauthorization naming the app-scoped id the code exchange gave disconnects that account', async () => {
    // Instagram gives an account a professional account id and an app-scoped one; a callback may name either.
    const id = await account(a, 'instagram', '17841400000000001', ['27000000000000001']);
    const res = await notify(
      'instagram',
      signedRequest({ algorithm: 'HMAC-SHA256', issued_at: 1, user_id: '27000000000000001' }),
    );
    expect(res.statusCode).toBe(200);
    expect((await reload(id))?.status).toBe('disconnected');
  });

  it("Threads' uninstall callback works with a numeric user id", async () => {
    const id = await account(a, 'threads', '55501');
    const res = await notify('threads', signedRequest({ algorithm: 'HMAC-SHA256', issued_at: 1, user_id: 55501 }));
    expect(res.statusCode).toBe(200);
    expect((await reload(id))?.status).toBe('disconnected');
  });

  it.each(['instagram', 'threads'] as const)(
    '%s: a signed_request signed with the Meta app secret disconnects too; one signed with a third secret is refused',
    async (platform) => {
      const refused = await account(a, platform, `${platform}-third`);
      const third = signedRequest({ algorithm: 'HMAC-SHA256', user_id: `${platform}-third` }, 'a-third-secret');
      const res = await notify(platform, third);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_notice');
      expect((await reload(refused))?.status).toBe('connected');

      const id = await account(a, platform, `${platform}-meta`);
      const meta = signedRequest({ algorithm: 'HMAC-SHA256', user_id: `${platform}-meta` }, META_APP_SECRET);
      expect((await notify(platform, meta)).statusCode).toBe(200);
      expect((await reload(id))?.status).toBe('disconnected');
    },
  );

  it('refuses notices not signed with the app secret, or malformed, changing nothing', async () => {
    const id = await account(a, 'instagram', '3333');
    const good = signedRequest({ algorithm: 'HMAC-SHA256', user_id: '3333' });
    for (const body of [
      signedRequest({ algorithm: 'HMAC-SHA256', user_id: '3333' }, 'not-the-secret'),
      good.replace('signed_request=', 'signed_request=x'),
      signedRequest({ algorithm: 'none', user_id: '3333' }),
      signedRequest({ algorithm: 'HMAC-SHA256' }),
      'signed_request=',
      'signed_request=a.b.c',
      '',
      '%%%',
      '{"user_id":"3333"}',
    ]) {
      const res = await notify('instagram', body);
      expect(res.statusCode, body).toBe(400);
      expect(res.json().error.code).toBe('invalid_notice');
    }
    expect((await reload(id))?.status).toBe('connected');
  });

  it("TikTok's authorization.removed webhook disconnects; other events, stale or foreign ones do not", async () => {
    const id = await account(a, 'tiktok', 'open-1');
    const event = (name: string, key = SANDBOX_CLIENT.clientId) => ({
      client_key: key,
      event: name,
      create_time: 1,
      user_openid: 'open-1',
      content: '{}',
    });
    const other = tiktok(event('video.publish.completed'));
    expect((await notify('tiktok', other.body, other.headers)).statusCode).toBe(200);
    expect((await reload(id))?.status).toBe('connected');
    for (const bad of [
      tiktok(event('authorization.removed'), Math.floor(Date.now() / 1000) - 3600),
      tiktok(event('authorization.removed'), undefined, 'wrong'),
      tiktok(event('authorization.removed', 'another-app')),
    ]) {
      const res = await notify('tiktok', bad.body, bad.headers);
      expect(res.statusCode).toBe(400);
    }
    expect((await notify('tiktok', '{}', { 'content-type': 'application/json' })).statusCode).toBe(400);
    expect((await reload(id))?.status).toBe('connected');
    const removed = tiktok(event('authorization.removed'));
    expect((await notify('tiktok', removed.body, removed.headers)).statusCode).toBe(200);
    expect((await reload(id))?.status).toBe('disconnected');
  });

  it('answers 404 for Facebook (pages show a removal on their next call) and unknown platforms', async () => {
    for (const platform of ['facebook', 'myspace']) {
      const res = await notify(platform, signedRequest({ algorithm: 'HMAC-SHA256', user_id: '1' }));
      expect(res.statusCode).toBe(404);
    }
  });
});
