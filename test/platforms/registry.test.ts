import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import {
  isPlatform,
  PLATFORMS,
  type Platform,
  type PublishDraft,
  platformInfo,
  settingsPrefix,
  textLength,
} from '../../src/platforms/index.ts';
import { SANDBOX_PLATFORMS } from '../../src/sandbox/registry.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

/** What the service offers on each platform, as the platforms' docs and docs/platforms.md say. */
const EXPECTED = {
  instagram: {
    label: 'Instagram',
    settingsPrefix: 'INSTAGRAM',
    comments: { reply: true, hide: true, deleteReply: true, replyToHidden: false, hideReplies: true },
    insights: {
      account: [
        'followers_count',
        'views',
        'reach',
        'accounts_engaged',
        'total_interactions',
        'likes',
        'comments',
        'saves',
        'shares',
      ],
      post: ['views', 'reach', 'likes', 'comments', 'saves', 'shares', 'total_interactions'],
    },
    publishing: {
      kinds: ['image', 'video', 'carousel'],
      // "JPEG is the only image format supported" (Instagram content publishing).
      containerPublishes: false,
      imageTypes: ['image/jpeg'],
      // Content Publishing, Troubleshooting: "once per minute, for no more than 5 minutes".
      processing: { pollSeconds: 60, pollFactor: 1, maxPollSeconds: 60, limitSeconds: 300 },
    },
    grantsPages: false,
  },
  threads: {
    label: 'Threads',
    settingsPrefix: 'THREADS',
    comments: { reply: true, hide: true, deleteReply: false, replyToHidden: true, hideReplies: false },
    insights: {
      account: ['followers_count', 'views', 'likes', 'replies', 'reposts', 'quotes', 'clicks'],
      post: ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'],
    },
    publishing: {
      kinds: ['text', 'image', 'video', 'carousel'],
      // Threads media specification: JPEG and PNG.
      containerPublishes: false,
      imageTypes: ['image/jpeg', 'image/png'],
      // Threads API Troubleshooting: "once per minute, for no more than 5 minutes".
      processing: { pollSeconds: 60, pollFactor: 1, maxPollSeconds: 60, limitSeconds: 300 },
    },
    grantsPages: false,
  },
  tiktok: {
    label: 'TikTok',
    settingsPrefix: 'TIKTOK',
    comments: null,
    insights: null,
    publishing: {
      kinds: ['video'],
      // TikTok's video/init is the post: TikTok publishes it by itself once processed.
      containerPublishes: true,
      imageTypes: [],
      // TikTok states no interval and "a time limit is not guaranteed" (a pull fails after an hour);
      // moderation "may take a few hours": the service's own bounds (docs/platforms.md, TikTok).
      processing: {
        pollSeconds: 2,
        pollFactor: 1.5,
        maxPollSeconds: 60,
        limitSeconds: 7200,
        permalinkLimitSeconds: 21_600,
      },
    },
    grantsPages: false,
  },
  facebook: {
    label: 'Facebook Pages',
    settingsPrefix: 'FACEBOOK',
    comments: { reply: true, hide: true, deleteReply: true, replyToHidden: true, hideReplies: true },
    insights: null,
    publishing: {
      kinds: ['text', 'image', 'carousel'],
      containerPublishes: false,
      imageTypes: ['image/jpeg', 'image/png'],
      // Feed posts have nothing to process.
      processing: null,
    },
    grantsPages: true,
  },
  linkedin: {
    label: 'LinkedIn',
    settingsPrefix: 'LINKEDIN',
    // Comments API: read and answered as the organization, its replies deleted ("Delete a
    // Comment"); LinkedIn documents no hiding.
    comments: { reply: true, hide: false, deleteReply: true, replyToHidden: false, hideReplies: false },
    // Organization Share Statistics (impressionCount, clickCount, likeCount, commentCount,
    // shareCount, and the engagement rate) by day and per post; the follower count through Network Sizes.
    insights: {
      account: ['followers_count', 'views', 'clicks', 'likes', 'comments', 'shares', 'engagement'],
      post: ['views', 'clicks', 'likes', 'comments', 'shares', 'engagement'],
    },
    publishing: {
      // Posts API: text, images, MultiImage, a video, a document (a PDF).
      kinds: ['text', 'image', 'carousel', 'video', 'document'],
      // POST /rest/posts with lifecycleState PUBLISHED is the publication.
      containerPublishes: true,
      // Images API: JPG, GIF and PNG.
      imageTypes: ['image/jpeg', 'image/png', 'image/gif'],
      // The post is made PUBLISHED (lifecycleState), its media uploaded and processed first; LinkedIn
      // states no interval or bound: every 5 s, doubling to a minute, for an hour (the service's own).
      processing: { pollSeconds: 5, pollFactor: 2, maxPollSeconds: 60, limitSeconds: 3600 },
    },
    // A member's login reaches the organization pages they administer.
    grantsPages: true,
  },
  youtube: {
    label: 'YouTube',
    settingsPrefix: 'YOUTUBE',
    // Comment threads read by polling, replies under a top-level comment, hiding by moderation
    // (heldForReview), a reply's own status too; a held comment is not answered.
    comments: { reply: true, hide: true, deleteReply: true, replyToHidden: false, hideReplies: true },
    // YouTube Analytics reports.query (views, estimatedMinutesWatched, likes, comments, shares,
    // subscribersGained, subscribersLost) by day and per video; subscribers from channels.list.
    insights: {
      account: [
        'followers_count',
        'views',
        'watch_time_minutes',
        'likes',
        'comments',
        'shares',
        'subscribers_gained',
        'subscribers_lost',
      ],
      post: ['views', 'watch_time_minutes', 'likes', 'comments', 'shares', 'subscribers_gained', 'subscribers_lost'],
    },
    publishing: {
      // videos.insert; the upload is the publication (YouTube publishes what it received).
      kinds: ['video'],
      containerPublishes: true,
      imageTypes: [],
      // YouTube documents no polling rhythm: the service's own, read up to 6 hours.
      processing: { pollSeconds: 30, pollFactor: 1.5, maxPollSeconds: 600, limitSeconds: 21600 },
    },
    // A Google login reaches each channel channels.list(mine=true) answers.
    grantsPages: true,
  },
  x: {
    label: 'X',
    settingsPrefix: 'X',
    // Replies to the account's posts: read, answered, hidden at any depth (Hide replies).
    comments: { reply: true, hide: true, deleteReply: true, replyToHidden: false, hideReplies: true },
    // Users lookup's public_metrics.followers_count; a post's public_metrics.
    insights: {
      account: ['followers_count'],
      post: ['views', 'likes', 'replies', 'reposts', 'quotes', 'bookmarks'],
    },
    publishing: {
      // Text, one image, up to 4 images, or one video in one post ("Media best practices").
      kinds: ['text', 'image', 'carousel', 'video'],
      // POST /2/tweets publishes the post it creates.
      containerPublishes: true,
      // Media upload: JPEG, PNG, WEBP and GIF images.
      imageTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
      // A post is created published; its video or GIF, uploaded first, is read until processed
      // (the service's own rhythm, never sooner than X's check_after_secs).
      processing: { pollSeconds: 5, pollFactor: 1.5, maxPollSeconds: 60, limitSeconds: 3600, itemsOnly: true },
    },
    grantsPages: false,
  },
  google_business: {
    label: 'Google Business Profile',
    settingsPrefix: 'GOOGLE_BUSINESS',
    // Reviews: listed, answered (updateReply, a second answer replacing it), the answer deleted
    // (deleteReply); Google has no hiding of reviews.
    comments: { reply: true, hide: false, deleteReply: true, replyToHidden: false, hideReplies: false },
    // The Performance API's DailyMetric figures of the location, per day; none per local post.
    insights: {
      account: [
        'impressions_desktop_maps',
        'impressions_desktop_search',
        'impressions_mobile_maps',
        'impressions_mobile_search',
        'calls',
        'website_clicks',
        'direction_requests',
        'conversations',
        'bookings',
      ],
      post: [],
    },
    publishing: {
      // A local post: a summary, a photo (LocalPost media: "sourceUrl"), or both.
      kinds: ['text', 'image'],
      // localPosts.create publishes; Google reviews the post (PROCESSING) and shows it (LIVE).
      containerPublishes: true,
      // Business Profile Help: a post's photo is a JPG or PNG.
      imageTypes: ['image/jpeg', 'image/png'],
      // No rhythm documented for a post's review: 30 s, then half as long again, at most 10 min, for a day.
      processing: { pollSeconds: 30, pollFactor: 1.5, maxPollSeconds: 600, limitSeconds: 86400 },
    },
    // A Google login reaches each location of each account it manages.
    grantsPages: true,
  },
  pinterest: {
    label: 'Pinterest',
    settingsPrefix: 'PINTEREST',
    // Pinterest's API has no comments.
    comments: null,
    // Get user account analytics (IMPRESSION, SAVE, PIN_CLICK, OUTBOUND_CLICK, ENGAGEMENT) by day, the
    // account's follower_count; Get Pin analytics (no ENGAGEMENT among a pin's metric types).
    insights: {
      account: ['followers_count', 'views', 'saves', 'pin_clicks', 'outbound_clicks', 'engagement'],
      post: ['views', 'saves', 'pin_clicks', 'outbound_clicks'],
    },
    publishing: {
      // Create Pin: an image (image_url), 2 to 5 images (multiple_image_urls), a video (video_id).
      kinds: ['image', 'carousel', 'video'],
      // POST /v5/pins makes the pin on its board.
      containerPublishes: true,
      // Create Pin's ContentType: image/jpeg and image/png.
      imageTypes: ['image/jpeg', 'image/png'],
      // A video is uploaded (POST /v5/media) and read until succeeded before the pin is made;
      // Pinterest states no rhythm: 5 s growing by half to a minute, for an hour (the service's own).
      processing: { pollSeconds: 5, pollFactor: 1.5, maxPollSeconds: 60, limitSeconds: 3600, itemsOnly: true },
    },
    grantsPages: false,
  },
  bluesky: {
    label: 'Bluesky',
    settingsPrefix: 'BLUESKY',
    // Replies under the account's posts: read (polling), answered, deleted, hidden at any depth
    // through the threadgate's hiddenReplies. The profile's followersCount; a post view's counts (no views).
    comments: { reply: true, hide: true, deleteReply: true, replyToHidden: false, hideReplies: true },
    insights: { account: ['followers_count'], post: ['likes', 'reposts', 'replies', 'quotes'] },
    publishing: {
      // app.bsky.feed.post records: text, one image, 2 to 4 (app.bsky.embed.images), or a video (app.bsky.embed.video).
      kinds: ['text', 'image', 'carousel', 'video'],
      // The record's key is chosen first; createRecord is the publication, made by publishContainer.
      containerPublishes: false,
      // Blob limits: JPEG, PNG and WebP images.
      imageTypes: ['image/jpeg', 'image/png', 'image/webp'],
      // Only a video is processed, by the video service before the post names it; "Uploading Video"
      // reads its job every second (the service: 2 s growing by half to 30 s), and its upload token
      // lasts the 30 minutes it recommends, past which the video cannot be stored.
      processing: { pollSeconds: 2, pollFactor: 1.5, maxPollSeconds: 30, limitSeconds: 1800, itemsOnly: true },
    },
    grantsPages: false,
  },
};

/** Where comments are read by polling only: LinkedIn pushes ordinary apps no comment notices. */
const WITHOUT_COMMENT_NOTICES: readonly Platform[] = ['linkedin', 'youtube', 'x', 'google_business', 'bluesky'];

/** The options whose values are each account's own there: Pinterest's boards. */
const LISTED_OPTIONS: Partial<Record<Platform, string[]>> = { pinterest: ['board_id'] };

describe('the platform registry', () => {
  it('lists each platform once, with its label, settings prefix and capabilities', () => {
    expect(PLATFORMS).toEqual([
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
    for (const platform of PLATFORMS) {
      const { label, grantsPages, comments, insights, publishing } = platformInfo(platform);
      const { kinds, containerPublishes, imageTypes, processing } = publishing;
      expect({
        label,
        settingsPrefix: settingsPrefix(platform),
        comments,
        insights,
        publishing: { kinds, containerPublishes, imageTypes, processing },
        grantsPages,
      }).toEqual(EXPECTED[platform]);
    }
    expect(isPlatform('tiktok')).toBe(true);
    expect(isPlatform('myspace')).toBe(false);
    expect(isPlatform('toString')).toBe(false);
  });

  it.each(Object.keys(EXPECTED) as Platform[])('%s: the adapter offers what the registry says', (platform) => {
    const adapter = sandbox.adapter(platform);
    const expected = EXPECTED[platform];
    // A capability the platform offers is one the adapter has, and one it has scopes for.
    expect(adapter.comments !== undefined).toBe(expected.comments !== null);
    expect(adapter.insights !== undefined).toBe(expected.insights !== null);
    expect(adapter.pages !== undefined).toBe(expected.grantsPages);
    const actions = adapter.scopes.byAction;
    expect(actions.read_comments !== undefined).toBe(expected.comments !== null);
    expect(actions.reply !== undefined).toBe(expected.comments !== null);
    expect(actions.hide !== undefined).toBe(expected.comments?.hide === true);
    expect(actions.read_insights !== undefined).toBe(expected.insights !== null);
    expect(actions.publish !== undefined).toBe(expected.publishing.kinds.length > 0);
    // An option whose values are the account's own is one the adapter reads the values of (posts naming one are checked with them).
    expect(Object.keys(platformInfo(platform).publishing.listedOptions ?? {})).toEqual(LISTED_OPTIONS[platform] ?? []);
    expect(Object.keys(adapter.publishing.optionValues ?? {})).toEqual(LISTED_OPTIONS[platform] ?? []);
  });

  it('has a sandbox part for every platform, and no other', () => {
    expect(SANDBOX_PLATFORMS.map((part) => part.name).sort()).toEqual([...PLATFORMS].sort());
  });

  it.each(Object.keys(EXPECTED) as Platform[])('%s: the sandbox imitates what the service uses there', (platform) => {
    const part = SANDBOX_PLATFORMS.find((p) => p.name === platform);
    const expected = EXPECTED[platform];
    // Where the service reads comments it is told of new ones, so the sandbox must send notices,
    // unless the platform sends none; where it reads figures, the sandbox must hold some to answer.
    expect(part?.webhooks !== null).toBe(expected.comments !== null && !WITHOUT_COMMENT_NOTICES.includes(platform));
    if (expected.insights !== null) expect(part?.insightMetrics).not.toBeNull();
  });

  it.each(Object.keys(EXPECTED) as Platform[])('%s: its credential settings are read by their prefix', (platform) => {
    const prefix = EXPECTED[platform].settingsPrefix;
    const config = loadConfig({ [`${prefix}_CLIENT_ID`]: 'id-1', [`${prefix}_CLIENT_SECRET`]: 'secret-1' });
    expect(config.platformCredentials).toEqual({ [platform]: { clientId: 'id-1', clientSecret: 'secret-1' } });
    expect(() => loadConfig({ [`${prefix}_CLIENT_ID`]: 'id-1' })).toThrow(
      `${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`,
    );
  });

  it.each(Object.keys(EXPECTED) as Platform[])('%s: the sandbox control API takes it', async (platform) => {
    const made = await sandbox.control('POST', '/users', { platform, username: `registry_${platform}` });
    expect(made.status).toBe(201);
    expect(made.body.platform).toBe(platform);
  });
});

/**
 * The limits each definition states, as the platforms' docs give them (docs/platforms.md): the
 * text and how it is counted, a carousel's items, the video lengths checked before publishing.
 */
const STATED = {
  instagram: {
    // Content Publishing guide: captions at most 2,200 characters, 30 hashtags, 20 @ tags;
    // carousels 2 to 10; reels (and single feed videos, published as reels) 3 s to 15 min;
    // story and carousel videos at most 60 s.
    text: { maxLength: 2200, rule: 'code_points', maxHashtags: 30, maxMentions: 20 },
    carousel: { minItems: 2, maxItems: 10 },
    videoDurations: [
      { in: 'single', options: { type: 'reel' }, minSeconds: 3, maxSeconds: 900 },
      { in: 'single', options: { type: 'story' }, minSeconds: 3, maxSeconds: 60 },
      { in: 'single', minSeconds: 3, maxSeconds: 900 },
      { in: 'carousel', minSeconds: 3, maxSeconds: 60 },
    ],
  },
  threads: {
    // Threads' posts docs: 500 characters, an emoji counting as its UTF-8 bytes; carousels of 2
    // to 20; videos at most 5 minutes.
    text: { maxLength: 500, rule: 'code_points_emoji_as_utf8_bytes' },
    carousel: { minItems: 2, maxItems: 20 },
    videoDurations: [
      { in: 'single', minSeconds: 0, maxSeconds: 300 },
      { in: 'carousel', minSeconds: 0, maxSeconds: 300 },
    ],
  },
  tiktok: {
    // Direct Post reference: a title of at most 2,200 UTF-16 code units; one video, whose longest
    // length is each creator's own (creator_info), checked when publishing.
    text: { maxLength: 2200, rule: 'utf16_code_units' },
    carousel: null,
    videoDurations: [],
  },
  facebook: {
    // Pages' post limits: 63,206 characters (counted as UTF-16 code units, as the service has
    // always counted them); several photos make one post.
    text: { maxLength: 63206, rule: 'utf16_code_units' },
    carousel: { minItems: 2, maxItems: null },
    videoDurations: [],
  },
  linkedin: {
    // 3,000 characters (LinkedIn's composer limit; its API pages state none), counted as UTF-16 code units;
    // MultiImage API: 2 to 20 images; a video of 3 seconds to 30 minutes (as comparable services
    // quote LinkedIn's Videos API), alone in its post.
    text: { maxLength: 3000, rule: 'utf16_code_units' },
    carousel: { minItems: 2, maxItems: 20 },
    videoDurations: [{ in: 'single', minSeconds: 3, maxSeconds: 1800 }],
  },
  youtube: {
    // Videos resource: a description of at most 5,000 bytes, counted in UTF-8.
    text: { maxLength: 5000, rule: 'utf8_bytes' },
    carousel: null,
    videoDurations: [],
  },
  x: {
    // Counting characters: 280 of X's weighted length (most European characters 1, others and
    // emoji 2, links 23).
    text: { maxLength: 280, rule: 'x_weighted' },
    // Up to 4 images in one post.
    carousel: { minItems: 2, maxItems: 4 },
    // Media best practices: a video lasts 0.5 to 140 seconds.
    videoDurations: [{ in: 'single', minSeconds: 0.5, maxSeconds: 140 }],
  },
  google_business: {
    // A post's description: 1,500 characters (Business Profile Help), counted as characters; no video, no carousel.
    text: { maxLength: 1500, rule: 'code_points' },
    carousel: null,
    videoDurations: [],
  },
  pinterest: {
    // Create Pin: a description of at most 800 characters (a JSON schema's maxLength: code points);
    // multiple_image_urls: 2 to 5 images; "Pinterest product specs": a video of 4 s to 15 min.
    text: { maxLength: 800, rule: 'code_points' },
    carousel: { minItems: 2, maxItems: 5 },
    videoDurations: [{ in: 'single', minSeconds: 4, maxSeconds: 900 }],
  },
  bluesky: {
    // app.bsky.feed.post: text of at most 300 graphemes; app.bsky.embed.images: up to 4 images;
    // "videos up to 10 minutes long" (Bluesky, 2026-08-25).
    text: { maxLength: 300, rule: 'graphemes' },
    carousel: { minItems: 2, maxItems: 4 },
    videoDurations: [{ in: 'single', minSeconds: 0, maxSeconds: 600 }],
  },
} as const;

const image = { type: 'image' as const };
const video = (durationSeconds: number) => ({ type: 'video' as const, durationSeconds });

/** The fields of the problems checkPublish finds in a draft. */
function problemFields(platform: Platform, draft: PublishDraft): string[] {
  return sandbox
    .adapter(platform)
    .publishing.checkPublish(draft)
    .map((p) => p.field);
}

/** The media of a post the platform takes besides its text: none, one image, or one video. */
function mediaFor(platform: Platform): PublishDraft['media'] {
  const { kinds } = platformInfo(platform).publishing;
  if (kinds.includes('text')) return [];
  return kinds.includes('image') ? [image] : [video(10)];
}

describe('what each definition states is what checkPublish enforces', () => {
  it.each(PLATFORMS)('%s: the definition states the limits the docs give', (platform) => {
    const { text, carousel, videoDurations } = platformInfo(platform).publishing;
    const { counting, ...limits } = text;
    expect({ text: { ...limits, rule: counting.rule }, carousel, videoDurations }).toEqual(STATED[platform]);
    expect(counting.description).not.toBe('');
  });

  it('counts a text as each platform does', () => {
    // 😀 is one code point, two UTF-16 code units, four UTF-8 bytes and one grapheme.
    expect(PLATFORMS.map((platform) => textLength(platform, 'é😀'))).toEqual([2, 5, 3, 3, 3, 6, 3, 2, 2, 2]);
    expect(textLength('threads', 'hello')).toBe(5);
  });

  it.each(PLATFORMS)('%s: a text at the stated length passes, one more is refused with `text`', (platform) => {
    const { maxLength } = platformInfo(platform).publishing.text;
    const media = mediaFor(platform);
    expect(problemFields(platform, { text: 'a'.repeat(maxLength), media })).not.toContain('text');
    expect(problemFields(platform, { text: 'a'.repeat(maxLength + 1), media })).toContain('text');
    // Counted as the platform counts it: an emoji at the end of a text at the limit.
    const atLimit = `${'a'.repeat(maxLength - textLength(platform, '😀'))}😀`;
    expect(textLength(platform, atLimit)).toBe(maxLength);
    expect(problemFields(platform, { text: atLimit, media })).not.toContain('text');
    expect(problemFields(platform, { text: `${atLimit}a`, media })).toContain('text');
  });

  it.each(PLATFORMS)('%s: hashtags and mentions up to the stated number pass, one more is refused', (platform) => {
    const { maxHashtags, maxMentions } = platformInfo(platform).publishing.text;
    const media = mediaFor(platform);
    const words = (mark: string, n: number) => Array.from({ length: n }, (_, i) => `${mark}word${i}`).join(' ');
    for (const [mark, most] of [
      ['#', maxHashtags],
      ['@', maxMentions],
    ] as const) {
      if (most === undefined) continue;
      expect(problemFields(platform, { text: words(mark, most), media })).not.toContain('text');
      expect(problemFields(platform, { text: words(mark, most + 1), media })).toContain('text');
    }
  });

  it.each(PLATFORMS)('%s: a carousel of the stated items passes, one more is refused with `media_ids`', (platform) => {
    const { kinds, carousel } = platformInfo(platform).publishing;
    expect(kinds.includes('carousel')).toBe(carousel !== null);
    const images = (n: number) => Array.from({ length: n }, () => image);
    if (carousel === null) {
      expect(problemFields(platform, { media: images(2) })).toContain('media_ids');
      return;
    }
    expect(problemFields(platform, { media: images(carousel.minItems) })).not.toContain('media_ids');
    if (carousel.maxItems === null) return;
    expect(problemFields(platform, { media: images(carousel.maxItems) })).not.toContain('media_ids');
    expect(problemFields(platform, { media: images(carousel.maxItems + 1) })).toContain('media_ids');
  });

  it.each(PLATFORMS)('%s: videos within each stated length pass, a second beyond is refused', (platform) => {
    for (const rule of platformInfo(platform).publishing.videoDurations) {
      const draft = (seconds: number): PublishDraft => ({
        media: rule.in === 'single' ? [video(seconds)] : [image, video(seconds)],
        ...(rule.options !== undefined ? { options: rule.options } : {}),
      });
      expect(problemFields(platform, draft(rule.maxSeconds))).not.toContain('media_ids');
      expect(problemFields(platform, draft(rule.maxSeconds + 1))).toContain('media_ids');
      expect(problemFields(platform, draft(rule.minSeconds))).not.toContain('media_ids');
      if (rule.minSeconds > 0) expect(problemFields(platform, draft(rule.minSeconds - 1))).toContain('media_ids');
    }
  });

  it.each(PLATFORMS)('%s: each metric offered is described', (platform) => {
    const { insights, metricDescriptions } = platformInfo(platform);
    expect(metricDescriptions === null).toBe(insights === null);
    if (insights === null || metricDescriptions === null) return;
    expect(Object.keys(metricDescriptions.account)).toEqual(insights.account);
    expect(Object.keys(metricDescriptions.post)).toEqual(insights.post);
    for (const description of [
      ...Object.values(metricDescriptions.account),
      ...Object.values(metricDescriptions.post),
    ]) {
      expect(description).not.toBe('');
    }
  });

  it("says where a metric's name means something of its own", () => {
    // Threads' user insights: "views: The number of times your profile was viewed"; Instagram's
    // account views count the content's plays and displays.
    expect(platformInfo('threads').metricDescriptions?.account.views).toMatch(/profile/);
    expect(platformInfo('instagram').metricDescriptions?.account.views).toMatch(/content/);
  });

  const TOGETHER: Record<string, Record<string, string>> = {
    GOOGLE_BUSINESS_PUBSUB_TOPIC: { GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: 'push@project-1.iam.gserviceaccount.com' },
    GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: { GOOGLE_BUSINESS_PUBSUB_TOPIC: 'projects/project-1/topics/topic-1' },
  };
  it.each(PLATFORMS)('%s: each setting it declares is read from its variable', (platform) => {
    for (const { variable } of Object.values(platformInfo(platform).settings)) {
      const name = variable.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
      // A version setting takes a version (vN.N), a count a whole number (a reserve of units less
      // than the day's default 10,000), a Pub/Sub topic its resource name, a service account its
      // email; the others any text without spaces.
      const value = variable.endsWith('_GRAPH_VERSION')
        ? 'v24.0'
        : variable.endsWith('_DAILY_UPLOADS')
          ? '6'
          : variable.endsWith('_UNITS')
            ? '6000'
            : variable.endsWith('_PUBSUB_TOPIC')
              ? 'projects/project-1/topics/topic-1'
              : variable.endsWith('_SERVICE_ACCOUNT')
                ? 'push@project-1.iam.gserviceaccount.com'
                : 'value-1';
      // Settings that are set together (Google Business Profile's topic and its push service account) come with their pair.
      const pair = TOGETHER[variable] ?? {};
      expect(loadConfig({ ...pair, [variable]: value })).toMatchObject({ [name]: value });
      expect(() => loadConfig({ ...pair, [variable]: 'two words' })).toThrow(`${variable}=`);
    }
  });
});
