import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

/*
 * Threads' posts docs (https://developers.facebook.com/docs/threads/posts, "Limitations"):
 * "Text posts are limited to 500 characters. Emojis are counted as the number of UTF-8 bytes."
 * Walked as any app would, without the service's adapter: the permission page, the code
 * exchange, the user's id, then text containers.
 */

let sandbox: TestSandbox;
let userId: string;
let accessToken: string;

const REDIRECT = 'https://app.example.test/threads/callback';

beforeAll(async () => {
  sandbox = await startSandbox();
  const dialog = new URL(`${sandbox.url}/threads.net/oauth/authorize`);
  for (const [name, value] of Object.entries({
    client_id: 'text-app',
    redirect_uri: REDIRECT,
    scope: 'threads_basic,threads_content_publish',
    response_type: 'code',
    state: 's',
  })) {
    dialog.searchParams.set(name, value);
  }
  const redirect = await sandbox.decide(dialog.toString(), { username: 'th_text_limit' });
  const exchanged = await sandbox.raw('POST', '/graph.threads.net/oauth/access_token', {
    client_id: 'text-app',
    client_secret: 'secret',
    grant_type: 'authorization_code',
    redirect_uri: REDIRECT,
    code: redirect.searchParams.get('code') ?? '',
  });
  expect(exchanged.status).toBe(200);
  accessToken = exchanged.body.access_token;
  // The exchange's user_id is a JSON number beyond 2^53: /me gives it as a string.
  const me = await sandbox.raw('GET', '/graph.threads.net/v1.0/me', { fields: 'id', access_token: accessToken });
  userId = me.body.id;
});
afterAll(() => sandbox.close());

/** A text container as Threads takes one: `POST /{user-id}/threads` with `media_type=TEXT`. */
function textContainer(text: string) {
  return sandbox.raw('POST', `/graph.threads.net/v1.0/${userId}/threads`, {
    media_type: 'TEXT',
    text,
    access_token: accessToken,
  });
}

async function expectTaken(text: string) {
  const answer = await textContainer(text);
  expect(answer.status, `${[...text].length} code points`).toBe(200);
  expect(answer.body.id).toMatch(/^\d+$/);
}

/** Refused as a Graph parameter error: HTTP 400, an OAuthException of code 100. */
async function expectRefused(text: string) {
  const answer = await textContainer(text);
  expect(answer.status, `${[...text].length} code points`).toBe(400);
  expect(answer.body.error).toMatchObject({ code: 100, type: 'OAuthException' });
}

describe("Threads' text limit", () => {
  it('takes a text post of 500 characters and refuses one of 501', async () => {
    await expectTaken('a'.repeat(500));
    await expectRefused('a'.repeat(501));
  });

  it('counts an emoji as its UTF-8 bytes: 😀 as 4, 👍🏽 as 8, a flag as 8', async () => {
    // 125 × 4 bytes.
    await expectTaken('😀'.repeat(125));
    await expectRefused(`${'😀'.repeat(125)}a`);
    // 😀 is 4, so 496 more characters reach 500.
    await expectTaken(`${'a'.repeat(496)}😀`);
    await expectRefused(`${'a'.repeat(497)}😀`);
    // A thumbs-up with its skin tone is one emoji of 8 bytes (F0 9F 91 8D F0 9F 8F BD).
    await expectTaken(`${'a'.repeat(492)}👍🏽`);
    await expectRefused(`${'a'.repeat(493)}👍🏽`);
    // The French flag: two regional indicators of 4 bytes each.
    await expectTaken(`${'a'.repeat(492)}🇫🇷`);
    await expectRefused(`${'a'.repeat(493)}🇫🇷`);
  });

  it('counts any other character once, whatever its UTF-8 bytes', async () => {
    // é is 2 bytes and 日 3 in UTF-8; each is one character.
    await expectTaken('é'.repeat(500));
    await expectRefused('é'.repeat(501));
    await expectTaken('日'.repeat(500));
  });
});
