import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { createPlatforms, type Platform } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { imageFile, multipartUpload, videoFile } from '../helpers/media-files.ts';

/**
 * GET /v1/platforms (docs/platforms.md, "The catalogue"): what it states, written out from the
 * platforms' docs, and that the API enforces what it states, walked platform by platform from
 * the catalogue itself, so a platform added later is held to its own entry.
 */

let t: TestApp;
let owner: TestOwner;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  owner = await t.createOwner();
});
afterAll(() => t.close());

interface CatalogueEntry {
  api_access: string | null;
  platform: Platform;
  label: string;
  availability: string;
  grants_pages: boolean;
  publishing: {
    kinds: string[];
    text: {
      max_length: number;
      counting: string;
      counting_description: string;
      max_hashtags: number | null;
      max_mentions: number | null;
    };
    carousel: { min_items: number; max_items: number | null } | null;
    video_durations: {
      in: string;
      options: Record<string, unknown> | null;
      min_seconds: number;
      max_seconds: number;
    }[];
    image_types: string[];
    options: { type: string; properties: Record<string, { title?: string }>; additionalProperties: boolean };
    required_options: string[];
  };
  comments: {
    reply: boolean;
    hide: boolean;
    delete_reply: boolean;
    hide_replies: boolean;
    reply_to_hidden: boolean;
  } | null;
  insights: {
    account: { name: string; description: string }[];
    post: { name: string; description: string }[];
    report: { followers: string | null; views: string[]; engagement: { account: string[]; post: string[] } };
  } | null;
}

async function catalogue(key = owner.key): Promise<CatalogueEntry[]> {
  const res = await t.app.inject({ method: 'GET', url: '/v1/platforms', headers: auth(key) });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.next_cursor).toBeNull();
  return body.data;
}

describe('GET /v1/platforms', () => {
  it('needs a key, and a profile key may read it', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/v1/platforms' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe('unauthorized');
    const profileKey = await t.createProfileKey(owner.ownerId, owner.defaultProfileId);
    expect((await catalogue(profileKey)).map((p) => p.platform)).toEqual([
      'instagram',
      'threads',
      'tiktok',
      'facebook',
      'linkedin',
      'youtube',
      'x',
      'google_business',
      'pinterest',
      'bluesky',
    ]);
  });

  it("states each platform's facts as its docs give them", async () => {
    const byName = Object.fromEntries((await catalogue()).map((p) => [p.platform, p]));
    // Instagram's Content Publishing guide: captions of 2,200 characters, 30 hashtags, 20 @ tags;
    // no text-only posts; carousels of 2 to 10; JPEG only; reels 3 s to 15 min, story and
    // carousel videos at most 60 s. "You cannot reply to hidden comments."
    expect(byName.instagram).toMatchObject({
      label: 'Instagram',
      availability: 'sandbox',
      grants_pages: false,
      publishing: {
        kinds: ['image', 'video', 'carousel'],
        text: { max_length: 2200, counting: 'code_points', max_hashtags: 30, max_mentions: 20 },
        carousel: { min_items: 2, max_items: 10 },
        video_durations: [
          { in: 'single', options: { type: 'reel' }, min_seconds: 3, max_seconds: 900 },
          { in: 'single', options: { type: 'story' }, min_seconds: 3, max_seconds: 60 },
          { in: 'single', options: null, min_seconds: 3, max_seconds: 900 },
          { in: 'carousel', options: null, min_seconds: 3, max_seconds: 60 },
        ],
        image_types: ['image/jpeg'],
      },
      comments: { reply: true, hide: true, delete_reply: true, hide_replies: true, reply_to_hidden: false },
    });
    // Threads' posts docs: 500 characters, an emoji counted as its UTF-8 bytes; carousels of 2 to
    // 20; JPEG and PNG. Its reply management hides top-level replies only.
    expect(byName.threads).toMatchObject({
      label: 'Threads',
      publishing: {
        kinds: ['text', 'image', 'video', 'carousel'],
        text: { max_length: 500, counting: 'code_points_emoji_as_utf8_bytes', max_hashtags: null, max_mentions: null },
        carousel: { min_items: 2, max_items: 20 },
        image_types: ['image/jpeg', 'image/png'],
      },
      comments: { reply: true, hide: true, delete_reply: false, hide_replies: false, reply_to_hidden: true },
    });
    // TikTok's Direct Post: one video, a title of 2,200 UTF-16 code units; no comments or
    // insights for ordinary apps.
    expect(byName.tiktok).toMatchObject({
      label: 'TikTok',
      publishing: {
        kinds: ['video'],
        text: { max_length: 2200, counting: 'utf16_code_units' },
        carousel: null,
        video_durations: [],
        image_types: [],
      },
      comments: null,
      insights: null,
    });
    // Facebook Pages: 63,206 characters; a login grants the pages it manages; no video.
    expect(byName.facebook).toMatchObject({
      label: 'Facebook Pages',
      grants_pages: true,
      publishing: {
        kinds: ['text', 'image', 'carousel'],
        text: { max_length: 63206 },
        carousel: { min_items: 2, max_items: null },
      },
      comments: { reply: true, hide: true, delete_reply: true, hide_replies: true, reply_to_hidden: true },
      insights: null,
    });
    // LinkedIn: a member's login grants the organization pages they administer; the Posts API's
    // commentary holds 3,000 characters (LinkedIn's composer limit); a MultiImage post 2 to 20 images (JPG, GIF, PNG);
    // a video of 3 seconds to 30 minutes, alone in its post; a document (a PDF), alone, with a title;
    // the Comments API reads and answers comments as the organization, and has no hiding.
    expect(byName.linkedin).toMatchObject({
      label: 'LinkedIn',
      grants_pages: true,
      publishing: {
        kinds: ['text', 'image', 'carousel', 'video', 'document'],
        text: { max_length: 3000, counting: 'utf16_code_units' },
        carousel: { min_items: 2, max_items: 20 },
        video_durations: [{ in: 'single', options: null, min_seconds: 3, max_seconds: 1800 }],
        image_types: ['image/jpeg', 'image/png', 'image/gif'],
      },
      comments: { reply: true, hide: false, delete_reply: true, hide_replies: false, reply_to_hidden: false },
    });
    // X: "Counting characters" (280 by weight), posts created published; its API is paid, each
    // owner bringing its own app, which the catalogue says for the dashboard to show.
    expect(byName.x).toMatchObject({
      label: 'X',
      grants_pages: false,
      api_access: expect.stringMatching(/paid.*its own X app/),
      publishing: {
        kinds: ['text', 'image', 'carousel', 'video'],
        text: { max_length: 280, counting: 'x_weighted' },
        video_durations: [{ in: 'single', min_seconds: 0.5, max_seconds: 140 }],
        carousel: { min_items: 2, max_items: 4 },
      },
      comments: { reply: true, hide: true, delete_reply: true, hide_replies: true, reply_to_hidden: false },
    });
    // Where the account's own reply can be deleted through the API (Threads' needs threads_delete, not asked for).
    expect(
      Object.fromEntries(Object.entries(byName).map(([name, p]) => [name, p?.comments?.delete_reply ?? null])),
    ).toEqual({
      instagram: true,
      threads: false,
      tiktok: null,
      facebook: true,
      linkedin: true,
      youtube: true,
      x: true,
      google_business: true,
      pinterest: null,
      bluesky: true,
    });
    expect(byName.x?.insights?.post.map((m) => m.name)).toEqual([
      'views',
      'likes',
      'replies',
      'reposts',
      'quotes',
      'bookmarks',
    ]);
    expect(byName.linkedin?.api_access).toBeNull();
    const accountMetric = (p: string, name: string) => byName[p]?.insights?.account.find((m) => m.name === name);
    // LinkedIn's share statistics count organic activity only; impressions are its views.
    expect(byName.linkedin?.insights?.account.map((m) => m.name)).toEqual([
      'followers_count',
      'views',
      'clicks',
      'likes',
      'comments',
      'shares',
      'engagement',
    ]);
    expect(byName.linkedin?.insights?.post.map((m) => m.name)).toEqual([
      'views',
      'clicks',
      'likes',
      'comments',
      'shares',
      'engagement',
    ]);
    expect(accountMetric('linkedin', 'views')?.description).toMatch(/impressions/i);
    // A rate, not a count: the catalogue says so, and that its total over days is null.
    expect(accountMetric('linkedin', 'engagement')?.description).toMatch(/rate.*fraction.*total over days is null/);
    // Threads' user insights: `views` are views of the profile; Instagram's, of the content.
    expect(accountMetric('threads', 'views')?.description).toMatch(/profile/);
    expect(accountMetric('instagram', 'views')?.description).toMatch(/content/);
    expect(byName.threads?.insights?.account.map((m) => m.name)).toEqual([
      'followers_count',
      'views',
      'likes',
      'replies',
      'reposts',
      'quotes',
      'clicks',
    ]);
    for (const entry of Object.values(byName)) {
      expect(entry.publishing.text.counting_description).not.toBe('');
      for (const option of Object.values(entry.publishing.options.properties)) expect(option.title).toBeTruthy();
    }
  });

  it("says which metrics make a report's followers, views and engagement on each platform, all of them its own", async () => {
    const entries = await catalogue();
    const report = Object.fromEntries(entries.map((e) => [e.platform, e.insights?.report ?? null]));
    expect(report).toEqual({
      instagram: {
        followers: 'followers_count',
        views: ['views'],
        engagement: { account: ['total_interactions'], post: ['total_interactions'] },
      },
      threads: {
        followers: 'followers_count',
        views: ['views'],
        engagement: {
          account: ['likes', 'replies', 'reposts', 'quotes'],
          post: ['likes', 'replies', 'reposts', 'quotes', 'shares'],
        },
      },
      tiktok: null,
      facebook: null,
      // LinkedIn's `engagement` is a rate: the counts are added instead.
      linkedin: {
        followers: 'followers_count',
        views: ['views'],
        engagement: { account: ['likes', 'comments', 'shares'], post: ['likes', 'comments', 'shares'] },
      },
      youtube: {
        followers: 'followers_count',
        views: ['views'],
        engagement: { account: ['likes', 'comments', 'shares'], post: ['likes', 'comments', 'shares'] },
      },
      x: {
        followers: 'followers_count',
        views: [],
        engagement: { account: [], post: ['likes', 'replies', 'reposts', 'quotes'] },
      },
      google_business: {
        followers: null,
        views: [
          'impressions_desktop_maps',
          'impressions_desktop_search',
          'impressions_mobile_maps',
          'impressions_mobile_search',
        ],
        engagement: {
          account: ['calls', 'website_clicks', 'direction_requests', 'conversations', 'bookings'],
          post: [],
        },
      },
      pinterest: {
        followers: 'followers_count',
        views: ['views'],
        engagement: { account: ['engagement'], post: ['saves', 'pin_clicks', 'outbound_clicks'] },
      },
      bluesky: {
        followers: 'followers_count',
        views: [],
        engagement: { account: [], post: ['likes', 'reposts', 'replies', 'quotes'] },
      },
    });
    for (const entry of entries) {
      const figures = entry.insights?.report;
      if (figures === undefined) continue;
      const account = entry.insights?.account.map((m) => m.name) ?? [];
      const post = entry.insights?.post.map((m) => m.name) ?? [];
      for (const metric of [
        ...(figures.followers === null ? [] : [figures.followers]),
        ...figures.views,
        ...figures.engagement.account,
      ]) {
        expect(account, entry.platform).toContain(metric);
      }
      for (const metric of figures.engagement.post) expect(post, entry.platform).toContain(metric);
    }
  });

  it('answers one platform by name, and 404 platform_not_found for another name', async () => {
    const [threads] = (await catalogue()).filter((p) => p.platform === 'threads');
    const one = await t.app.inject({ method: 'GET', url: '/v1/platforms/threads', headers: auth(owner.key) });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(threads);
    for (const name of ['myspace', 'constructor']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/platforms/${name}`, headers: auth(owner.key) });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({
        code: 'platform_not_found',
        details: {
          platforms: [
            'instagram',
            'threads',
            'tiktok',
            'facebook',
            'linkedin',
            'youtube',
            'x',
            'google_business',
            'pinterest',
            'bluesky',
          ],
        },
      });
    }
  });

  it('refuses a path that is no platform name with validation_failed on path.platform', async () => {
    for (const name of ['INSTAGRAM', 'toString', '-1', '%20']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/platforms/${name}`, headers: auth(owner.key) });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', details: [{ field: 'path.platform' }] });
    }
  });

  it("states each platform's options as the schema POST /v1/posts takes in `platforms.<platform>`", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const body = doc.paths['/v1/posts'].post.requestBody.content['application/json'].schema;
    for (const entry of await catalogue()) {
      expect(entry.publishing.options).toEqual(body.properties.platforms.properties[entry.platform]);
    }
  });

  it('says which platforms this service has credentials for, live or sandbox', async () => {
    const live = await startTestApp(
      { PLATFORMS: 'live', THREADS_CLIENT_ID: 'id-1', THREADS_CLIENT_SECRET: 'secret-1' },
      undefined,
      {
        platforms: createPlatforms({
          platforms: 'live',
          platformCredentials: { threads: { clientId: 'id-1', clientSecret: 'secret-1' } },
          sandboxUrl: undefined,
        }),
      },
    );
    try {
      const o = await live.createOwner();
      const res = await live.app.inject({ method: 'GET', url: '/v1/platforms', headers: auth(o.key) });
      expect(res.json().data.map((p: CatalogueEntry) => [p.platform, p.availability])).toEqual([
        ['instagram', 'not_configured'],
        ['threads', 'live'],
        ['tiktok', 'not_configured'],
        ['facebook', 'not_configured'],
        ['linkedin', 'not_configured'],
        ['youtube', 'not_configured'],
        ['x', 'not_configured'],
        ['google_business', 'not_configured'],
        ['pinterest', 'not_configured'],
        ['bluesky', 'not_configured'],
      ]);
    } finally {
      await live.close();
    }
  });
});

/** The scopes that let each action be taken, as the platforms name them (docs/platforms.md, "Scopes by action"). */
const SCOPES: Record<Platform, string[]> = {
  instagram: [
    'instagram_business_basic',
    'instagram_business_content_publish',
    'instagram_business_manage_comments',
    'instagram_business_manage_insights',
  ],
  threads: [
    'threads_basic',
    'threads_content_publish',
    'threads_manage_replies',
    'threads_read_replies',
    'threads_manage_insights',
  ],
  tiktok: ['user.info.basic', 'video.publish'],
  facebook: [
    'pages_show_list',
    'pages_manage_posts',
    'pages_read_engagement',
    'pages_manage_engagement',
    'pages_read_user_content',
  ],
  // Community Management API: the member, the organizations administered, reading their posts
  // and comments, posting and commenting as them.
  linkedin: ['r_basicprofile', 'rw_organization_admin', 'r_organization_social', 'w_organization_social'],
  // Google's YouTube scopes: uploading, the channel and its comments, YouTube Analytics.
  youtube: [
    'https://www.googleapis.com/auth/youtube.upload',
    'https://www.googleapis.com/auth/youtube.force-ssl',
    'https://www.googleapis.com/auth/yt-analytics.readonly',
  ],
  // OAuth 2.0 scopes: reading posts and the user, posting, uploading media, a refresh token.
  x: ['tweet.read', 'tweet.write', 'users.read', 'offline.access', 'media.write', 'tweet.moderate.write'],
  // Business Profile APIs: the one scope every call asks.
  google_business: ['https://www.googleapis.com/auth/business.manage'],
  // The user's account and its analytics, its boards, and pins (Create Pin lists boards:write too).
  pinterest: ['user_accounts:read', 'boards:read', 'boards:write', 'pins:read', 'pins:write'],
  // "OAuth": every session's atproto, and the transitional scope for the account's repository.
  bluesky: ['atproto', 'transition:generic'],
};

/**
 * A text of `length` as `rule` counts it, ending with an emoji where the rule counts one
 * differently from a letter: 😀 is one code point, two UTF-16 code units and four UTF-8 bytes.
 */
const EMOJI_LENGTH: Record<string, number> = {
  code_points: 1,
  utf16_code_units: 2,
  code_points_emoji_as_utf8_bytes: 4,
  utf8_bytes: 4,
  // X's "Counting characters": an emoji weighs 2.
  x_weighted: 2,
  // Bluesky's graphemes: an emoji is one grapheme.
  graphemes: 1,
};
function textOf(rule: string, length: number): string {
  const emoji = EMOJI_LENGTH[rule];
  if (emoji === undefined)
    throw new Error(`no text written for the counting rule ${rule}; add it here from the platform's docs`);
  return `${'a'.repeat(length - emoji)}😀`;
}

/** The options a post cannot go without (TikTok's Direct Post: the creator chooses the privacy level). */
const REQUIRED_OPTIONS: Partial<Record<Platform, Record<string, unknown>>> = {
  tiktok: { privacy_level: 'SELF_ONLY' },
  // YouTube: a title, and the made-for-kids declaration the creator must make.
  youtube: { title: 'A video', made_for_kids: false },
  // Pinterest: the board the pin is saved to.
  pinterest: { board_id: '549755885175' },
};

let accountsMade = 0;
async function accountOn(platform: Platform): Promise<string> {
  accountsMade += 1;
  const platformUserId = `catalogue-${accountsMade}`;
  const { account } = await t.database.db.transaction((tx) =>
    saveConnectedAccount(tx, t.secretKey, {
      ownerId: owner.ownerId,
      profileId: owner.defaultProfileId,
      platform,
      tokens: { accessToken: `token-${accountsMade}`, expiresAt: null, platformUserId, scopes: SCOPES[platform] },
      profile: {
        id: platformUserId,
        username: `catalogue${accountsMade}`,
        name: null,
        avatarUrl: null,
        followersCount: null,
      },
    }),
  );
  return account.id;
}

async function upload(bytes: Buffer): Promise<string> {
  const { payload, headers } = multipartUpload(bytes, { filename: 'upload.bin' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/media',
    headers: { ...auth(owner.key), ...headers },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** A draft on `accountId`; drafts are checked as any post is, and nothing is published. */
function draft(accountId: string, fields: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/posts',
    headers: auth(owner.key),
    payload: { account_ids: [accountId], draft: true, ...fields },
  });
}

function fieldsRefused(res: {
  statusCode: number;
  json(): { error: { code: string; details?: { field: string }[] } };
}): string[] {
  if (res.statusCode < 400) return [];
  return (res.json().error.details ?? []).map((d) => d.field);
}

describe('the API enforces what the catalogue states', () => {
  let entries: CatalogueEntry[];
  let image: string;
  let video: string;

  beforeAll(async () => {
    entries = await catalogue();
    image = await upload(await imageFile('jpeg'));
    video = await upload(await videoFile('mp4', { seconds: 4 }));
  });

  /** The media and options a post there needs besides its text, from the catalogue's kinds. */
  function bodyFor(entry: CatalogueEntry): Record<string, unknown> {
    const { kinds } = entry.publishing;
    const media_ids = kinds.includes('text') ? [] : kinds.includes('image') ? [image] : [video];
    const options = REQUIRED_OPTIONS[entry.platform];
    return {
      ...(media_ids.length > 0 ? { media_ids } : {}),
      ...(options !== undefined ? { platforms: { [entry.platform]: options } } : {}),
    };
  }

  it('takes a text at the stated length, counted by the stated rule, and refuses one more on `text`', async () => {
    for (const entry of entries) {
      const account = await accountOn(entry.platform);
      const { max_length, counting } = entry.publishing.text;
      const atLimit = textOf(counting, max_length);
      const accepted = await draft(account, { ...bodyFor(entry), text: atLimit });
      expect(accepted.statusCode, `${entry.platform}: ${accepted.body}`).toBe(201);
      const refused = await draft(account, { ...bodyFor(entry), text: `${atLimit}a` });
      expect(refused.statusCode, entry.platform).toBe(400);
      expect(refused.json().error.code).toBe('validation_failed');
      expect(fieldsRefused(refused), entry.platform).toContain('text');
    }
  });

  it('states the options a platform requires, and refuses a post without each at its field', async () => {
    // TikTok's privacy level has no default ("privacy_level ... must be one of the values of
    // privacy_level_options"); YouTube needs a title and the made-for-kids declaration.
    expect(Object.fromEntries(entries.map((e) => [e.platform, e.publishing.required_options]))).toEqual({
      instagram: [],
      threads: [],
      tiktok: ['privacy_level'],
      facebook: [],
      linkedin: [],
      youtube: ['title', 'made_for_kids'],
      x: [],
      google_business: [],
      pinterest: ['board_id'],
      bluesky: [],
    });
    for (const entry of entries) {
      const account = await accountOn(entry.platform);
      for (const name of entry.publishing.required_options) {
        const body = bodyFor(entry);
        const options = { ...(REQUIRED_OPTIONS[entry.platform] ?? {}) };
        delete options[name];
        const refused = await draft(account, { ...body, text: 'Hello', platforms: { [entry.platform]: options } });
        expect(refused.statusCode, `${entry.platform} without ${name}`).toBe(400);
        expect(fieldsRefused(refused)).toContain(`platforms.${entry.platform}.${name}`);
      }
    }
  });

  it('takes a text-only post where `kinds` has `text`, and refuses it elsewhere', async () => {
    for (const entry of entries) {
      const account = await accountOn(entry.platform);
      const res = await draft(account, { ...bodyFor(entry), media_ids: undefined, text: 'Hello' });
      if (entry.publishing.kinds.includes('text')) expect(res.statusCode, `${entry.platform}: ${res.body}`).toBe(201);
      else expect(fieldsRefused(res), entry.platform).toContain('media_ids');
    }
  });

  it('takes the metrics listed, and refuses another with unknown_metric; no insights where it states none', async () => {
    for (const entry of entries) {
      const account = await accountOn(entry.platform);
      const read = (metrics: string) =>
        t.app.inject({
          method: 'GET',
          url: `/v1/accounts/${account}/insights?metrics=${encodeURIComponent(metrics)}`,
          headers: auth(owner.key),
        });
      if (entry.insights === null) {
        const res = await read('views');
        expect(res.statusCode, entry.platform).toBe(422);
        expect(res.json().error.code).toBe('insights_not_supported');
        continue;
      }
      const listed = entry.insights.account.map((m) => m.name);
      const all = await read(listed.join(','));
      expect(all.statusCode, `${entry.platform}: ${all.body}`).toBe(200);
      expect(Object.keys(all.json().metrics)).toEqual(listed);
      const unknown = await read(`${listed[0]},not_a_metric`);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error).toMatchObject({
        code: 'unknown_metric',
        details: { unknown_metrics: ['not_a_metric'], valid_metrics: listed },
      });
    }
  });

  it("refuses a post's metric it does not list, and takes those it lists", async () => {
    for (const entry of entries.filter((e) => e.insights !== null)) {
      const account = await accountOn(entry.platform);
      const made = await draft(account, { ...bodyFor(entry), text: 'Measured' });
      expect(made.statusCode, made.body).toBe(201);
      const read = (metrics: string) =>
        t.app.inject({
          method: 'GET',
          url: `/v1/posts/${made.json().id}/insights?metrics=${encodeURIComponent(metrics)}`,
          headers: auth(owner.key),
        });
      // Every listed metric is taken: what stops the read is that the draft is not published yet.
      // (Google Business Profile lists none: a local post has no figures of its own.)
      const names = (entry.insights?.post ?? []).map((m) => m.name);
      if (names.length > 0) {
        const listed = await read(names.join(','));
        expect(listed.json().error.code, entry.platform).toBe('post_not_published');
      }
      const unknown = await read('not_a_metric');
      expect(unknown.json().error.code, entry.platform).toBe('unknown_metric');
    }
  });

  it('syncs comments where it states comments, and refuses where it states none', async () => {
    for (const entry of entries) {
      const account = await accountOn(entry.platform);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/comments/sync',
        headers: auth(owner.key),
        payload: { account_ids: [account] },
      });
      if (entry.comments === null) {
        expect(res.statusCode, entry.platform).toBe(422);
        expect(res.json().error.code).toBe('unsupported_platform');
      } else {
        expect(res.statusCode, `${entry.platform}: ${res.body}`).toBe(202);
      }
    }
  });
});
