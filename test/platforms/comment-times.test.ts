/**
 * Reading comments' own times in batches: Graph's multiple-id read (`GET /?ids=a,b&fields=...`,
 * at most 50 ids a call) as the Instagram and Facebook adapters make it, and as the sandbox
 * answers it (docs/platforms.md, "Reading a comment's time").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentsOf, pagesOf, platformError, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

/** Adds `count` comments by fans on the user's first post, the i-th made at `at(i)`; answers their ids. */
async function addComments(
  platform: 'instagram' | 'facebook',
  username: string,
  count: number,
  at: (i: number) => string,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const added = await sandbox.control('POST', '/comments', {
      platform,
      username,
      author_username: `fan_${i}`,
      text: `Comment ${i}`,
      commented_at: at(i),
    });
    expect(added.status).toBe(201);
    ids.push(added.body.id);
  }
  return ids;
}

/** 2026-01-02T03:00:00Z plus i minutes. */
function minuteOf(i: number): string {
  return new Date(Date.UTC(2026, 0, 2, 3, i)).toISOString();
}

describe("Instagram: comments' times read 50 at a time", () => {
  it('120 comments are 3 calls of 50, 50 and 20 ids; a deleted one among them is left out', async () => {
    const credentials = await sandbox.credentials('instagram', 'ct_ig');
    const ids = await addComments('instagram', 'ct_ig', 120, minuteOf);
    const instagram = sandbox.adapter('instagram');
    // The 61st is deleted on Instagram before its time is read: the account removed a fan's
    // comment on its media (Comment Moderation, `DELETE /{comment-id}`).
    const deletion = await fetch(
      `${sandbox.url}/graph.instagram.com/v27.0/${ids[60]}?access_token=${encodeURIComponent(credentials.accessToken)}`,
      { method: 'DELETE' },
    );
    expect(await deletion.json()).toEqual({ success: true });
    const since = new Date();
    const times = await commentsOf(instagram).commentTimes(credentials, ids);

    const expected = new Map(ids.map((id, i) => [id, new Date(minuteOf(i))]));
    expected.delete(ids[60] as string);
    expect(times).toEqual(expected);
    const calls = (await sandbox.calls('instagram', 'ct_ig', since)).data;
    const reads = calls.map((c) => ({ path: c.path, ids: c.query.ids?.split(',').length, fields: c.query.fields }));
    // The second batch named the deleted comment: Graph refused it naming that id, and the
    // other 49 were read again.
    expect(reads).toEqual([
      { path: '/graph.instagram.com/v27.0/', ids: 50, fields: 'timestamp' },
      { path: '/graph.instagram.com/v27.0/', ids: 50, fields: 'timestamp' },
      { path: '/graph.instagram.com/v27.0/', ids: 49, fields: 'timestamp' },
      { path: '/graph.instagram.com/v27.0/', ids: 20, fields: 'timestamp' },
    ]);
    expect(calls[1]?.query.ids?.split(',')).toEqual(ids.slice(50, 100));
    expect(calls[2]?.query.ids?.split(',')).toEqual(ids.slice(50, 100).filter((id) => id !== ids[60]));
  });

  it('120 comments that all exist are 3 calls, counted as 3 in the call log', async () => {
    const credentials = await sandbox.credentials('instagram', 'ct_ig3');
    const ids = await addComments('instagram', 'ct_ig3', 120, minuteOf);
    const since = new Date();
    const times = await commentsOf(sandbox.adapter('instagram')).commentTimes(credentials, ids);
    expect(times.size).toBe(120);
    const log = await sandbox.calls('instagram', 'ct_ig3', since);
    expect(log.data.map((c) => c.query.ids?.split(',').length)).toEqual([50, 50, 20]);
  });

  it('one comment is read by its own id; a repeated id is read once', async () => {
    const credentials = await sandbox.credentials('instagram', 'ct_ig1');
    const [id] = await addComments('instagram', 'ct_ig1', 1, minuteOf);
    const since = new Date();
    const times = await commentsOf(sandbox.adapter('instagram')).commentTimes(credentials, [
      id as string,
      id as string,
    ]);
    expect(times).toEqual(new Map([[id, new Date(minuteOf(0))]]));
    const calls = (await sandbox.calls('instagram', 'ct_ig1', since)).data;
    expect(calls.map((c) => [c.path, c.query.fields])).toEqual([[`/graph.instagram.com/v27.0/${id}`, 'timestamp']]);
  });

  it('comments the platform does not have at all are left out, with no error', async () => {
    const credentials = await sandbox.credentials('instagram', 'ct_ig0');
    const [id] = await addComments('instagram', 'ct_ig0', 1, minuteOf);
    const times = await commentsOf(sandbox.adapter('instagram')).commentTimes(credentials, [
      '17800000000000001',
      id as string,
      '17800000000000002',
    ]);
    expect(times).toEqual(new Map([[id, new Date(minuteOf(0))]]));
  });
});

describe('when the multiple-id read fails', () => {
  it('a batch Graph refuses for another reason than a gone id is read one comment at a time', async () => {
    // A host that does not take `?ids=` refuses it as a bad request (code 100).
    const credentials = await sandbox.credentials('instagram', 'ct_refused');
    const ids = await addComments('instagram', 'ct_refused', 3, minuteOf);
    const fault = await sandbox.control('POST', '/faults', {
      platform: 'instagram',
      username: 'ct_refused',
      error: 'invalid_request',
    });
    expect(fault.status).toBe(201);
    const since = new Date();
    const times = await commentsOf(sandbox.adapter('instagram')).commentTimes(credentials, ids);
    expect(times).toEqual(new Map(ids.map((id, i) => [id, new Date(minuteOf(i))])));
    const calls = (await sandbox.calls('instagram', 'ct_refused', since)).data;
    expect(calls.map((c) => c.path)).toEqual([
      '/graph.instagram.com/v27.0/',
      ...ids.map((id) => `/graph.instagram.com/v27.0/${id}`),
    ]);
    // The host is not asked for a multiple-id read again for a while: the next times are read one by one at once.
    const later = new Date();
    await commentsOf(sandbox.adapter('instagram')).commentTimes(credentials, ids);
    expect((await sandbox.calls('instagram', 'ct_refused', later)).data.map((c) => c.path)).toEqual(
      ids.map((id) => `/graph.instagram.com/v27.0/${id}`),
    );
  });

  it('a passing failure is a PlatformError of its kind, as one by one', async () => {
    const credentials = await sandbox.credentials('instagram', 'ct_passing');
    const ids = await addComments('instagram', 'ct_passing', 2, minuteOf);
    for (const kind of ['transient', 'rate_limited'] as const) {
      await sandbox.control('POST', '/faults', { platform: 'instagram', username: 'ct_passing', error: kind });
      const error = await platformError(commentsOf(sandbox.adapter('instagram')).commentTimes(credentials, ids));
      expect(error.kind).toBe(kind);
      expect(error.passing).toBe(true);
    }
  });
});

describe("the sandbox's multiple-id read, as Graph answers it", () => {
  it('answers one object keyed by each id asked, each as GET /{id} with the same fields; one call', async () => {
    const credentials = await sandbox.credentials('instagram', 'ct_raw');
    const ids = await addComments('instagram', 'ct_raw', 2, minuteOf);
    const since = new Date();
    const answer = await sandbox.raw('GET', '/graph.instagram.com/v27.0/', {
      ids: ids.join(','),
      fields: 'timestamp,text',
      access_token: credentials.accessToken,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      [ids[0] as string]: { id: ids[0], timestamp: '2026-01-02T03:00:00+0000', text: 'Comment 0' },
      [ids[1] as string]: { id: ids[1], timestamp: '2026-01-02T03:01:00+0000', text: 'Comment 1' },
    });
    const single = await sandbox.raw('GET', `/graph.instagram.com/v27.0/${ids[0]}`, {
      fields: 'timestamp,text',
      access_token: credentials.accessToken,
    });
    expect(answer.body[ids[0] as string]).toEqual(single.body);
    const log = await sandbox.calls('instagram', 'ct_raw', since);
    expect(log.count).toBe(2);
    expect(log.data[0]?.query).toEqual({ ids: ids.join(','), fields: 'timestamp,text' });
  });

  it('answers 20 ids (more than it reads at once) keyed in the order asked, each with its own time', async () => {
    const credentials = await sandbox.credentials('instagram', 'ct_order');
    const ids = await addComments('instagram', 'ct_order', 20, minuteOf);
    const asked = [...ids].reverse();
    const answer = await sandbox.raw('GET', '/graph.instagram.com/v27.0/', {
      ids: asked.join(','),
      fields: 'timestamp',
      access_token: credentials.accessToken,
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(asked);
    const minute = (i: number) => `2026-01-02T03:${String(i).padStart(2, '0')}:00+0000`;
    expect(answer.body).toEqual(Object.fromEntries(ids.map((id, i) => [id, { id, timestamp: minute(i) }])));
  });

  it('refuses the whole read with code 803 naming every id the token cannot read', async () => {
    const credentials = await sandbox.credentials('instagram', 'ct_missing');
    const [id] = await addComments('instagram', 'ct_missing', 1, minuteOf);
    // Another user's comment is not readable with this token: as if it did not exist.
    await sandbox.credentials('instagram', 'ct_other');
    const [othersId] = await addComments('instagram', 'ct_other', 1, minuteOf);
    const answer = await sandbox.raw('GET', '/graph.instagram.com/v27.0/', {
      ids: `${id},404404,${othersId}`,
      fields: 'timestamp',
      access_token: credentials.accessToken,
    });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({
      message: `(#803) Some of the aliases you requested do not exist: 404404,${othersId}`,
      type: 'OAuthException',
      code: 803,
    });
  });

  it('takes at most 50 ids', async () => {
    const credentials = await sandbox.credentials('instagram', 'ct_limit');
    const ids = await addComments('instagram', 'ct_limit', 51, minuteOf);
    const fifty = await sandbox.raw('GET', '/graph.instagram.com/v27.0/', {
      ids: ids.slice(0, 50).join(','),
      fields: 'timestamp',
      access_token: credentials.accessToken,
    });
    expect(fifty.status).toBe(200);
    expect(Object.keys(fifty.body)).toHaveLength(50);
    const fiftyOne = await sandbox.raw('GET', '/graph.instagram.com/v27.0/', {
      ids: ids.join(','),
      fields: 'timestamp',
      access_token: credentials.accessToken,
    });
    expect(fiftyOne.status).toBe(400);
    expect(fiftyOne.body.error).toMatchObject({ code: 100, type: 'OAuthException' });
  });

  it('refuses a read without a token as any Graph call', async () => {
    const answer = await sandbox.raw('GET', '/graph.instagram.com/v27.0/', { ids: '1,2', fields: 'timestamp' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 190 });
  });
});

describe("Facebook: a page's comments' times in one call", () => {
  it('reads created_time of several comments with ?ids= on graph.facebook.com', async () => {
    const facebook = sandbox.adapter('facebook');
    const login = await sandbox.credentials('facebook', 'ct_fb');
    const [grant] = await pagesOf(facebook)(login);
    const page = { platformUserId: grant?.id ?? '', accessToken: grant?.accessToken ?? '' };
    const ids = await addComments('facebook', 'ct_fb.page1', 3, minuteOf);
    const since = new Date();
    const times = await commentsOf(facebook).commentTimes(page, ids);
    expect(times).toEqual(new Map(ids.map((id, i) => [id, new Date(minuteOf(i))])));
    const calls = (await sandbox.calls('facebook', 'ct_fb.page1', since)).data;
    expect(calls.map((c) => [c.path, c.query.ids, c.query.fields])).toEqual([
      ['/graph.facebook.com/v27.0/', ids.join(','), 'created_time'],
    ]);
  });
});
