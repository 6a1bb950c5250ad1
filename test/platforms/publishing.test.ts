/**
 * Publishing through each adapter against the sandbox: every kind of post, what the
 * platform received (its activity), quotas, finding a post after a crash, and media URLs
 * the platform cannot use. The media are real files on a local server the sandbox fetches.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import type { AccountCredentials, Platform, PlatformAdapter, PublishRequest } from '../../src/platforms/index.ts';
import { commentsOf, pagesOf, platformError, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

let sandbox: TestSandbox;
let media: MediaServer;
let instagram: PlatformAdapter;
let threads: PlatformAdapter;
let tiktok: PlatformAdapter;
let facebook: PlatformAdapter;

beforeAll(async () => {
  sandbox = await startSandbox();
  media = await startMediaServer();
  instagram = sandbox.adapter('instagram');
  threads = sandbox.adapter('threads');
  tiktok = sandbox.adapter('tiktok');
  facebook = sandbox.adapter('facebook');
});
afterAll(async () => {
  await sandbox.close();
  await media.close();
});
afterEach(() => resetClock());

/** Longer than the sandbox's 5 s of container processing (its default container_processing_seconds). */
const PROCESSING_DONE_MS = 6_000;
const DAY_MS = 86_400_000;

const image = (path = '/photo.jpg') => ({ type: 'image' as const, url: media.url(path) });
const video = (path = '/clip.mp4') => ({ type: 'video' as const, url: media.url(path) });

/** The step an adapter declares for after publishing; the test fails where it declares none. */
function afterPublish(adapter: PlatformAdapter) {
  const step = adapter.publishing.afterPublish;
  if (step === undefined) throw new Error(`${adapter.platform} declares no step after publishing`);
  return step;
}

interface Activity {
  action: string;
  target_id: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the control API's JSON field by field.
  detail: any;
}

async function activity(platform: Platform, username: string): Promise<Activity[]> {
  return (await sandbox.control('GET', `/activity/${platform}/${username}`)).body.data;
}

async function publications(platform: Platform, username: string): Promise<Activity[]> {
  return (await activity(platform, username)).filter((a) => a.action === 'publish');
}

async function setSetting(name: string, value: string | number): Promise<void> {
  expect((await sandbox.control('PUT', `/settings/${name}`, { value })).status).toBe(200);
}

/**
 * Creates the container, waits out processing on the sandbox clock and publishes it
 * (TikTok publishes by itself once processed: its container then says published).
 */
async function publish(adapter: PlatformAdapter, account: AccountCredentials, request: PublishRequest) {
  // A carousel's items are made first, and its own container only once each is finished.
  const items = (await adapter.publishing.createCarouselItems?.(account, request)) ?? undefined;
  if (items !== undefined) {
    advanceClock(PROCESSING_DONE_MS);
    for (const item of items) expect((await adapter.publishing.containerStatus(account, item)).state).toBe('finished');
  }
  const { containerId } = await adapter.publishing.createContainer(account, request, items);
  advanceClock(PROCESSING_DONE_MS);
  const ready = adapter.platform === 'tiktok' ? 'published' : 'finished';
  expect((await adapter.publishing.containerStatus(account, containerId)).state).toBe(ready);
  return { containerId, ...(await adapter.publishing.publishContainer(account, containerId)) };
}

describe('instagram publishing', () => {
  it('feed: an image, a single video (published as a reel) and a carousel, as Instagram received them', async () => {
    const account = await sandbox.credentials('instagram', 'igp_feed');
    const photo = await publish(instagram, account, { text: 'A photo', media: [image()] });
    const clip = await publish(instagram, account, { text: 'A clip', media: [video()] });
    const album = await publish(instagram, account, { text: 'Both', media: [image(), video('/clip.mov')] });
    expect(await publications('instagram', 'igp_feed')).toEqual([
      expect.objectContaining({
        target_id: photo.id,
        detail: expect.objectContaining({ text: 'A photo', type: 'IMAGE', media_urls: [media.url('/photo.jpg')] }),
      }),
      expect.objectContaining({
        target_id: clip.id,
        detail: expect.objectContaining({ text: 'A clip', type: 'REELS', media_urls: [media.url('/clip.mp4')] }),
      }),
      expect.objectContaining({
        target_id: album.id,
        detail: expect.objectContaining({
          text: 'Both',
          type: 'CAROUSEL',
          media_urls: [media.url('/photo.jpg'), media.url('/clip.mov')],
        }),
      }),
    ]);
    const listed = await sandbox.raw('GET', `/graph.instagram.com/v25.0/${account.platformUserId}/media`, {
      access_token: account.accessToken,
      fields: 'id,media_type,media_product_type',
    });
    expect(listed.body.data.slice(0, 3)).toEqual([
      { id: album.id, media_type: 'CAROUSEL_ALBUM', media_product_type: 'FEED' },
      { id: clip.id, media_type: 'VIDEO', media_product_type: 'REELS' },
      { id: photo.id, media_type: 'IMAGE', media_product_type: 'FEED' },
    ]);
  });

  it('a reel, and a story: no caption, and not among the media; Instagram Login has no stories edge', async () => {
    const account = await sandbox.credentials('instagram', 'igp_story');
    const reel = await publish(instagram, account, {
      text: 'Reel',
      media: [video()],
      options: { type: 'reel' },
    });
    const story = await publish(instagram, account, {
      text: 'not shown on a story',
      media: [image()],
      options: { type: 'story' },
    });
    const [reelSent, storySent] = await publications('instagram', 'igp_story');
    expect(reelSent).toMatchObject({ target_id: reel.id, detail: { type: 'REELS', text: 'Reel' } });
    expect(storySent).toMatchObject({
      target_id: story.id,
      detail: { type: 'STORIES', text: '', media_urls: [media.url('/photo.jpg')] },
    });
    const query = { access_token: account.accessToken, fields: 'id,media_product_type' };
    const base = `/graph.instagram.com/v25.0/${account.platformUserId}`;
    // The stories edge is documented for Facebook Login (graph.facebook.com) only.
    const stories = await sandbox.raw('GET', `${base}/stories`, query);
    expect(stories.status).toBe(400);
    expect(stories.body.error).toMatchObject({ code: 100 });
    const ids = (await sandbox.raw('GET', `${base}/media`, query)).body.data.map((m: { id: string }) => m.id);
    expect(ids).toContain(reel.id);
    expect(ids).not.toContain(story.id);
  });

  it('first comment: a comment by the account on its new post', async () => {
    const account = await sandbox.credentials('instagram', 'igp_comment');
    const post = await publish(instagram, account, { text: 'Commented', media: [image()] });
    const firstComment = { first_comment: 'Link in bio' };
    expect(afterPublish(instagram).asked(firstComment)).toBe(true);
    expect(afterPublish(instagram).asked({ type: 'feed' })).toBe(false);
    const comment = await afterPublish(instagram).run(account, post.id, firstComment);
    const comments = (await commentsOf(instagram).recentComments(account, { posts: 1 })).comments;
    expect(comments).toContainEqual(
      expect.objectContaining({ id: comment.id, postId: post.id, text: 'Link in bio', byAccount: true }),
    );
    expect((await activity('instagram', 'igp_comment')).at(-1)).toMatchObject({
      action: 'comment',
      target_id: post.id,
      detail: { comment_id: comment.id, message: 'Link in bio' },
    });
  });

  it('a first comment needs the comments permission: permission_missing naming it', async () => {
    const account = await sandbox.credentials('instagram', 'igp_nocomment', [
      'instagram_business_basic',
      'instagram_business_content_publish',
    ]);
    const post = await publish(instagram, account, { text: 'x', media: [image()] });
    expect(await platformError(afterPublish(instagram).run(account, post.id, { first_comment: 'hi' }))).toMatchObject({
      kind: 'permission_missing',
      detail: { missingScopes: ['instagram_business_manage_comments'] },
    });
  });

  it('the quota: content_publishing_limit counts publications; past it, 2207042 is rate_limited until the day moves on', async () => {
    const account = await sandbox.credentials('instagram', 'igp_quota');
    expect(await instagram.publishing.publishingQuota(account)).toEqual({ used: 0, limit: 100, windowSeconds: 86_400 });
    await setSetting('instagram_publish_quota', 1);
    try {
      await publish(instagram, account, { text: 'one', media: [image()] });
      expect(await instagram.publishing.publishingQuota(account)).toEqual({ used: 1, limit: 1, windowSeconds: 86_400 });
      const { containerId } = await instagram.publishing.createContainer(account, { text: 'two', media: [image()] });
      advanceClock(PROCESSING_DONE_MS);
      const spent = await platformError(instagram.publishing.publishContainer(account, containerId));
      expect(spent).toMatchObject({ kind: 'rate_limited', detail: { code: 9, subcode: 2207042 } });
      expect(spent.detail.retryAfterSeconds).toBeGreaterThan(0);
      expect(await publications('instagram', 'igp_quota')).toHaveLength(1);
      advanceClock(DAY_MS);
      expect(await instagram.publishing.publishingQuota(account)).toEqual({ used: 0, limit: 1, windowSeconds: 86_400 });
      // The container waited past its 24 hours: a new one publishes.
      expect((await instagram.publishing.containerStatus(account, containerId)).state).toBe('expired');
      await publish(instagram, account, { text: 'two', media: [image()] });
      expect(await publications('instagram', 'igp_quota')).toHaveLength(2);
    } finally {
      await setSetting('instagram_publish_quota', 100);
    }
  });

  it('findPublished: null until the container is published, then the post it became; a story cannot be found', async () => {
    const account = await sandbox.credentials('instagram', 'igp_find');
    await publish(instagram, account, { text: 'Another caption', media: [image()] });
    const { containerId } = await instagram.publishing.createContainer(account, { text: 'Find me', media: [image()] });
    expect(await instagram.publishing.findPublished(account, containerId)).toBeNull();
    advanceClock(PROCESSING_DONE_MS);
    expect(await instagram.publishing.findPublished(account, containerId)).toBeNull();
    const published = await instagram.publishing.publishContainer(account, containerId);
    await publish(instagram, account, { text: 'Published later', media: [image()] });
    expect(await instagram.publishing.findPublished(account, containerId)).toEqual(published);
    const story = await publish(instagram, account, {
      media: [video()],
      options: { type: 'story' },
    });
    expect(await instagram.publishing.findPublished(account, story.containerId)).toEqual({
      unfindable:
        "Instagram documents no read of an account's stories for Instagram Login, so its id and link are unknown",
    });
  });

  it('media Instagram cannot use: images are refused at once with its codes, videos fail their container', async () => {
    const account = await sandbox.credentials('instagram', 'igp_badmedia');
    const refused = async (path: string) =>
      (await platformError(instagram.publishing.createContainer(account, { media: [image(path)] }))).detail;
    // Instagram error codes: 9004/2207052 not fetched, 36001/2207005 not a JPEG.
    expect(await refused('/missing.jpg')).toMatchObject({ code: 9004, subcode: 2207052 });
    expect(await refused('/photo.png')).toMatchObject({ code: 36001, subcode: 2207005 });
    expect(await refused('/page.jpg')).toMatchObject({ code: 36001, subcode: 2207005 });
    const { containerId } = await instagram.publishing.createContainer(account, { media: [video('/png.mp4')] });
    advanceClock(PROCESSING_DONE_MS);
    expect(await instagram.publishing.containerStatus(account, containerId)).toEqual({
      state: 'failed',
      message: expect.stringContaining('2207026'),
    });
    expect((await platformError(instagram.publishing.publishContainer(account, containerId))).kind).toBe(
      'invalid_request',
    );
    const missing = await instagram.publishing.createContainer(account, {
      media: [video('/missing.mp4')],
      options: { type: 'reel' },
    });
    expect(await instagram.publishing.containerStatus(account, missing.containerId)).toEqual({
      state: 'failed',
      message: expect.stringContaining('2207052'),
    });
    expect(await publications('instagram', 'igp_badmedia')).toEqual([]);
  });
});

describe('threads publishing', () => {
  it('text with reply_control and topic_tag, a video and a carousel, as Threads received them', async () => {
    const account = await sandbox.credentials('threads', 'thp_kinds');
    const text = await publish(threads, account, {
      text: 'Hello',
      media: [],
      options: { reply_control: 'mentioned_only', topic_tag: 'Switchboard' },
    });
    const clip = await publish(threads, account, { text: 'Watch', media: [video('/clip.mov')] });
    const album = await publish(threads, account, { text: 'Album', media: [image(), image('/photo.png'), video()] });
    expect(await publications('threads', 'thp_kinds')).toEqual([
      expect.objectContaining({
        target_id: text.id,
        detail: expect.objectContaining({
          text: 'Hello',
          type: 'TEXT',
          media_urls: [],
          options: { reply_control: 'mentioned_only', topic_tag: 'Switchboard' },
        }),
      }),
      expect.objectContaining({
        target_id: clip.id,
        detail: expect.objectContaining({ type: 'VIDEO', media_urls: [media.url('/clip.mov')], options: {} }),
      }),
      expect.objectContaining({
        target_id: album.id,
        detail: expect.objectContaining({
          type: 'CAROUSEL',
          media_urls: [media.url('/photo.jpg'), media.url('/photo.png'), media.url('/clip.mp4')],
        }),
      }),
    ]);
  });

  it('the quota: threads_publishing_limit counts posts; past it, publishing is rate_limited', async () => {
    const account = await sandbox.credentials('threads', 'thp_quota');
    expect(await threads.publishing.publishingQuota(account)).toEqual({ used: 0, limit: 250, windowSeconds: 86_400 });
    await setSetting('threads_publish_quota', 1);
    try {
      await publish(threads, account, { text: 'one', media: [] });
      expect(await threads.publishing.publishingQuota(account)).toEqual({ used: 1, limit: 1, windowSeconds: 86_400 });
      const { containerId } = await threads.publishing.createContainer(account, { text: 'two', media: [] });
      advanceClock(PROCESSING_DONE_MS);
      const spent = await platformError(threads.publishing.publishContainer(account, containerId));
      expect(spent.kind).toBe('rate_limited');
      expect(spent.detail.retryAfterSeconds).toBeGreaterThan(0);
      expect(await publications('threads', 'thp_quota')).toHaveLength(1);
      advanceClock(DAY_MS);
      expect((await threads.publishing.publishingQuota(account))?.used).toBe(0);
    } finally {
      await setSetting('threads_publish_quota', 250);
    }
  });

  it('findPublished: the post, or the reply, a published container became', async () => {
    const account = await sandbox.credentials('threads', 'thp_find');
    const post = await publish(threads, account, { text: 'Root', media: [image()] });
    expect(await threads.publishing.findPublished(account, post.containerId)).toEqual({
      id: post.id,
      permalink: post.permalink,
    });
    const { containerId } = await threads.publishing.createContainer(account, {
      text: 'A reply',
      media: [],
      replyToId: post.id,
    });
    // A reply container is processed before it can be published, as a media one is.
    advanceClock(PROCESSING_DONE_MS);
    expect(await threads.publishing.findPublished(account, containerId)).toBeNull();
    const reply = await threads.publishing.publishContainer(account, containerId);
    expect(await threads.publishing.findPublished(account, containerId)).toEqual(reply);
  });

  it('media Threads cannot use fail the container with its documented error_message', async () => {
    const account = await sandbox.credentials('threads', 'thp_badmedia');
    const failed = async (item: PublishRequest['media'][number]) => {
      const { containerId } = await threads.publishing.createContainer(account, { text: 'x', media: [item] });
      advanceClock(PROCESSING_DONE_MS);
      return threads.publishing.containerStatus(account, containerId);
    };
    expect(await failed(video('/missing.mp4'))).toEqual({ state: 'failed', message: 'FAILED_DOWNLOADING_VIDEO' });
    expect(await failed(video('/png.mp4'))).toEqual({ state: 'failed', message: 'FAILED_PROCESSING_VIDEO' });
    expect(await failed(image('/page.jpg'))).toEqual({ state: 'failed', message: 'UNKNOWN' });
    expect(await publications('threads', 'thp_badmedia')).toEqual([]);
  });

  it('has no first comments (a reply is published instead)', async () => {
    expect(threads.publishing.afterPublish).toBeUndefined();
  });
});

describe('carousels: items first, finished', () => {
  const hosts = { instagram: '/graph.instagram.com/v25.0', threads: '/graph.threads.net/v1.0' } as const;
  const edges = { instagram: 'media', threads: 'threads' } as const;

  it.each(['instagram', 'threads'] as const)(
    '%s: the sandbox refuses a carousel naming an item still processing (9007/2207027) or failed (100), and makes one of finished items',
    async (platform) => {
      const account = await sandbox.credentials(platform, `car_${platform}`);
      const edge = `${hosts[platform]}/${account.platformUserId}/${edges[platform]}`;
      const item = async (fields: Record<string, string>) => {
        const made = await sandbox.raw('POST', edge, {
          ...fields,
          is_carousel_item: 'true',
          access_token: account.accessToken,
        });
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        return made.body.id as string;
      };
      const carousel = (children: string[]) =>
        sandbox.raw('POST', edge, {
          media_type: 'CAROUSEL',
          children: children.join(','),
          access_token: account.accessToken,
          ...(platform === 'threads' ? { text: 'Items' } : { caption: 'Items' }),
        });
      const imageFields = {
        image_url: media.url('/photo.jpg'),
        ...(platform === 'threads' ? { media_type: 'IMAGE' } : {}),
      };
      const first = await item(imageFields);
      const second = await item(imageFields);
      // Both items are still IN_PROGRESS: refused as media not ready yet.
      const early = await carousel([first, second]);
      expect(early.status).toBe(400);
      expect(early.body.error).toMatchObject({ code: 9007, error_subcode: 2207027 });
      advanceClock(PROCESSING_DONE_MS);
      // An item that failed (a video that cannot be downloaded): refused, naming it.
      const broken = await item({ video_url: media.url('/missing.mp4'), media_type: 'VIDEO' });
      advanceClock(PROCESSING_DONE_MS);
      const withBroken = await carousel([first, broken]);
      expect(withBroken.status).toBe(400);
      expect(withBroken.body.error.code).toBe(100);
      expect(withBroken.body.error.message).toContain(broken);
      // Every item finished: made.
      const made = await carousel([first, second]);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
    },
  );
});

describe('tiktok publishing', () => {
  const post = (privacy_level: string, extra: Record<string, boolean> = {}): PublishRequest => ({
    text: 'Clip',
    media: [video()],
    options: { privacy_level, ...extra },
  });

  it('the interaction switches reach TikTok; a private post is found by its publish id', async () => {
    const account = await sandbox.credentials('tiktok', 'ttp_switches');
    const sent = await publish(tiktok, account, post('SELF_ONLY', { disable_comment: true, disable_duet: true }));
    expect(await tiktok.publishing.findPublished(account, sent.containerId)).toEqual({ id: sent.id, permalink: null });
    expect(await publications('tiktok', 'ttp_switches')).toEqual([
      expect.objectContaining({
        detail: expect.objectContaining({
          text: 'Clip',
          type: 'VIDEO',
          media_urls: [media.url('/clip.mp4')],
          options: {
            privacy_level: 'SELF_ONLY',
            disable_comment: true,
            disable_duet: true,
            disable_stitch: false,
            brand_content_toggle: false,
            brand_organic_toggle: false,
          },
        }),
      }),
    ]);
  });

  it('a public post in moderation is found by its publish id without a permalink, then by its public id once moderation gave it', async () => {
    const account = await sandbox.credentials('tiktok', 'ttp_public');
    const { containerId } = await tiktok.publishing.createContainer(account, post('PUBLIC_TO_EVERYONE'));
    expect(await tiktok.publishing.findPublished(account, containerId)).toBeNull();
    advanceClock(PROCESSING_DONE_MS);
    // Published, but TikTok gives its public id only once moderation is done.
    expect(await tiktok.publishing.findPublished(account, containerId)).toEqual({
      id: containerId.slice('PUBLIC_TO_EVERYONE:'.length),
      permalink: null,
    });
    // Longer than the sandbox's 30 s of moderation (its default tiktok_moderation_seconds).
    advanceClock(31_000);
    const found = await tiktok.publishing.findPublished(account, containerId);
    const id = found !== null && 'id' in found ? found.id : null;
    expect(found).toEqual({
      id: expect.stringMatching(/^\d{17}$/),
      permalink: `https://www.tiktok.com/@ttp_public/video/${id}`,
    });
  });

  it('a video URL that gives no video fails as video_pull_failed; TikTok has no quota to read nor comments', async () => {
    const account = await sandbox.credentials('tiktok', 'ttp_pull');
    const { containerId } = await tiktok.publishing.createContainer(account, {
      ...post('SELF_ONLY'),
      media: [video('/gone.mp4')],
    });
    advanceClock(PROCESSING_DONE_MS);
    expect(await tiktok.publishing.containerStatus(account, containerId)).toEqual({
      state: 'failed',
      message: 'video_pull_failed',
    });
    expect(await tiktok.publishing.publishingQuota(account)).toBeNull();
    expect(tiktok.publishing.afterPublish).toBeUndefined();
  });

  it('an app not yet audited posting publicly: invalid_request with TikTok code, nothing published', async () => {
    const account = await sandbox.credentials('tiktok', 'ttp_unaudited');
    await setSetting('tiktok_client_audit', 'unaudited');
    try {
      expect(await platformError(tiktok.publishing.createContainer(account, post('PUBLIC_TO_EVERYONE')))).toMatchObject(
        {
          kind: 'invalid_request',
          detail: { code: 'unaudited_client_can_only_post_to_private_accounts' },
        },
      );
      expect(await publications('tiktok', 'ttp_unaudited')).toEqual([]);
    } finally {
      await setSetting('tiktok_client_audit', 'audited');
    }
  });
});

describe('facebook publishing', () => {
  async function page(username: string): Promise<AccountCredentials> {
    const tokens = await sandbox.connect('facebook', username);
    const [first] = await pagesOf(facebook)(tokens);
    if (first === undefined) throw new Error('no page');
    if (first.accessToken === null) throw new Error('a Facebook page has a token of its own');
    return { platformUserId: first.id, accessToken: first.accessToken };
  }

  it('a link post and an album, as the page received them', async () => {
    const account = await page('fbp_kinds');
    const link = await publish(facebook, account, {
      text: 'Read this',
      media: [],
      options: { link: 'https://example.com/article' },
    });
    const album = await publish(facebook, account, { text: 'Two photos', media: [image(), image('/photo.png')] });
    expect(await publications('facebook', 'fbp_kinds')).toEqual([
      expect.objectContaining({
        target_id: link.id,
        detail: expect.objectContaining({
          text: 'Read this',
          type: 'LINK',
          media_urls: [],
          options: { link: 'https://example.com/article' },
        }),
      }),
      expect.objectContaining({
        target_id: album.id,
        detail: expect.objectContaining({
          type: 'ALBUM',
          media_urls: [media.url('/photo.jpg'), media.url('/photo.png')],
        }),
      }),
    ]);
  });

  it('a published container says so, and leads to its post; the page has no quota to read', async () => {
    const account = await page('fbp_find');
    const { containerId } = await facebook.publishing.createContainer(account, { text: 'Once only', media: [] });
    expect(await facebook.publishing.findPublished(account, containerId)).toBeNull();
    const published = await facebook.publishing.publishContainer(account, containerId);
    expect(await facebook.publishing.containerStatus(account, containerId)).toEqual({ state: 'published' });
    expect(await facebook.publishing.findPublished(account, containerId)).toEqual(published);
    expect(await facebook.publishing.publishingQuota(account)).toBeNull();
  });

  it('a photo URL that gives no image is refused (code 324), nothing published', async () => {
    const account = await page('fbp_badmedia');
    for (const path of ['/missing.jpg', '/page.jpg']) {
      expect(
        await platformError(facebook.publishing.createContainer(account, { text: 'x', media: [image(path)] })),
      ).toMatchObject({ kind: 'invalid_request', detail: { code: 324 } });
    }
    expect(await publications('facebook', 'fbp_badmedia')).toEqual([]);
  });
});
