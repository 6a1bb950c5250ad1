/**
 * checkPublish: every platform rule a post can break, found without a call. Limits are
 * written out from the platforms' docs (Instagram's Content Publishing guide, Threads'
 * posts docs, TikTok's Direct Post reference), not read from the adapters.
 */
import { describe, expect, it } from 'vitest';
import { createPlatforms, type PublishDraft } from '../../src/platforms/index.ts';

// No call is made: the sandbox URL is never reached.
const platforms = createPlatforms({ platforms: 'sandbox', platformCredentials: {}, sandboxUrl: 'http://127.0.0.1:9' });
const instagram = platforms.adapter('instagram');
const threads = platforms.adapter('threads');
const tiktok = platforms.adapter('tiktok');
const facebook = platforms.adapter('facebook');

const image = { type: 'image' as const };
const video = (durationSeconds?: number) => ({ type: 'video' as const, durationSeconds: durationSeconds ?? null });
const fields = (problems: { field: string }[]) => problems.map((p) => p.field);

describe('instagram rules', () => {
  it('accepts an image, a single video (a reel), a carousel of 2 to 10, a reel and a story', () => {
    const ok: PublishDraft[] = [
      { text: 'x', media: [image] },
      { media: [video(30)] },
      { media: Array.from({ length: 10 }, () => image) },
      { media: [image, video(59)] },
      { media: [video(900)], options: { type: 'reel', first_comment: 'First!' } },
      { media: [image], options: { type: 'story' } },
      { media: [video(60)], options: { type: 'story' } },
    ];
    for (const draft of ok) expect(instagram.publishing.checkPublish(draft)).toEqual([]);
  });

  it('needs media; a reel is one video; a story is one item; a carousel at most 10', () => {
    expect(instagram.publishing.checkPublish({ text: 'words only', media: [] })).toEqual([
      { field: 'media_ids', message: expect.any(String) },
    ]);
    const reel = { type: 'reel' as const };
    expect(fields(instagram.publishing.checkPublish({ media: [image], options: reel }))).toEqual(['media_ids']);
    expect(fields(instagram.publishing.checkPublish({ media: [video(), video()], options: reel }))).toEqual([
      'media_ids',
    ]);
    const story = { type: 'story' as const };
    expect(fields(instagram.publishing.checkPublish({ media: [image, image], options: story }))).toEqual(['media_ids']);
    expect(fields(instagram.publishing.checkPublish({ media: Array.from({ length: 11 }, () => image) }))).toEqual([
      'media_ids',
    ]);
  });

  it('video lengths: reels 3 s to 15 min, story and carousel videos at most 60 s', () => {
    const reel = { type: 'reel' as const };
    expect(fields(instagram.publishing.checkPublish({ media: [video(901)], options: reel }))).toEqual(['media_ids']);
    expect(fields(instagram.publishing.checkPublish({ media: [video(2)], options: reel }))).toEqual(['media_ids']);
    expect(fields(instagram.publishing.checkPublish({ media: [video(901)] }))).toEqual(['media_ids']);
    const story = { type: 'story' as const };
    expect(fields(instagram.publishing.checkPublish({ media: [video(61)], options: story }))).toEqual(['media_ids']);
    expect(fields(instagram.publishing.checkPublish({ media: [image, video(61)] }))).toEqual(['media_ids']);
  });

  it('captions: at most 2,200 characters, 30 hashtags and 20 mentions', () => {
    expect(instagram.publishing.checkPublish({ text: 'a'.repeat(2200), media: [image] })).toEqual([]);
    expect(fields(instagram.publishing.checkPublish({ text: 'a'.repeat(2201), media: [image] }))).toEqual(['text']);
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `#tag${i}`).join(' ');
    expect(instagram.publishing.checkPublish({ text: tags(30), media: [image] })).toEqual([]);
    expect(fields(instagram.publishing.checkPublish({ text: tags(31), media: [image] }))).toEqual(['text']);
    const mentions = Array.from({ length: 21 }, (_, i) => `@user${i}`).join(' ');
    expect(fields(instagram.publishing.checkPublish({ text: mentions, media: [image] }))).toEqual(['text']);
  });

  it('options: the type among feed, reel, story; a first comment with text, never on a story', () => {
    const bad = { type: 'carousel' } as unknown as PublishDraft['options'];
    expect(fields(instagram.publishing.checkPublish({ media: [image], options: bad }))).toEqual([
      'platforms.instagram.type',
    ]);
    expect(fields(instagram.publishing.checkPublish({ media: [image], options: { first_comment: '  ' } }))).toEqual([
      'platforms.instagram.first_comment',
    ]);
    expect(
      fields(
        instagram.publishing.checkPublish({
          media: [image],
          options: { type: 'story', first_comment: 'hi' },
        }),
      ),
    ).toEqual(['platforms.instagram.first_comment']);
  });

  it('lists every problem at once', () => {
    expect(
      fields(
        instagram.publishing.checkPublish({
          text: 'a'.repeat(2201),
          media: [],
          options: { first_comment: '' },
        }),
      ),
    ).toEqual(['text', 'media_ids', 'platforms.instagram.first_comment']);
  });
});

describe('threads rules', () => {
  it('text at most 500 as Threads counts it (an emoji as its UTF-8 bytes)', () => {
    expect(threads.publishing.checkPublish({ text: 'a'.repeat(500), media: [] })).toEqual([]);
    expect(fields(threads.publishing.checkPublish({ text: 'a'.repeat(501), media: [] }))).toEqual(['text']);
    // 124 emoji of 4 bytes and 4 letters: 500; one more letter: 501.
    expect(threads.publishing.checkPublish({ text: `${'😀'.repeat(124)}abcd`, media: [] })).toEqual([]);
    expect(fields(threads.publishing.checkPublish({ text: `${'😀'.repeat(124)}abcde`, media: [] }))).toEqual(['text']);
  });

  it('needs text or media; a carousel has at most 20 items; videos at most 5 minutes', () => {
    expect(fields(threads.publishing.checkPublish({ text: ' ', media: [] }))).toEqual(['text']);
    expect(threads.publishing.checkPublish({ media: Array.from({ length: 20 }, () => image) })).toEqual([]);
    expect(fields(threads.publishing.checkPublish({ media: Array.from({ length: 21 }, () => image) }))).toEqual([
      'media_ids',
    ]);
    expect(fields(threads.publishing.checkPublish({ media: [video(301)] }))).toEqual(['media_ids']);
  });

  it('reply_control among Threads five values; topic_tag 1 to 50 characters without . or &', () => {
    for (const replyControl of [
      'everyone',
      'accounts_you_follow',
      'mentioned_only',
      'parent_post_author_only',
      'followers_only',
    ] as const) {
      expect(
        threads.publishing.checkPublish({ text: 'x', media: [], options: { reply_control: replyControl } }),
      ).toEqual([]);
    }
    const bad = { reply_control: 'nobody' } as unknown as PublishDraft['options'];
    expect(fields(threads.publishing.checkPublish({ text: 'x', media: [], options: bad }))).toEqual([
      'platforms.threads.reply_control',
    ]);
    const tag = (topic_tag: string) =>
      fields(threads.publishing.checkPublish({ text: 'x', media: [], options: { topic_tag } }));
    expect(tag('a'.repeat(50))).toEqual([]);
    expect(tag('a'.repeat(51))).toEqual(['platforms.threads.topic_tag']);
    expect(tag('')).toEqual(['platforms.threads.topic_tag']);
    expect(tag('dogs.cats')).toEqual(['platforms.threads.topic_tag']);
    expect(tag('salt & pepper')).toEqual(['platforms.threads.topic_tag']);
  });
});

describe('tiktok rules', () => {
  const privacy = (privacy_level: string) => ({ privacy_level });

  it('exactly one video and a privacy level among TikTok four', () => {
    for (const level of ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY']) {
      expect(tiktok.publishing.checkPublish({ media: [video()], options: privacy(level) })).toEqual([]);
    }
    expect(fields(tiktok.publishing.checkPublish({ media: [image], options: privacy('SELF_ONLY') }))).toEqual([
      'media_ids',
    ]);
    expect(
      fields(tiktok.publishing.checkPublish({ media: [video(), video()], options: privacy('SELF_ONLY') })),
    ).toEqual(['media_ids']);
    expect(fields(tiktok.publishing.checkPublish({ text: 'x', media: [], options: privacy('SELF_ONLY') }))).toEqual([
      'media_ids',
    ]);
    expect(fields(tiktok.publishing.checkPublish({ media: [video()] }))).toEqual(['platforms.tiktok.privacy_level']);
    expect(fields(tiktok.publishing.checkPublish({ media: [video()], options: privacy('FRIENDS') }))).toEqual([
      'platforms.tiktok.privacy_level',
    ]);
  });

  it('a title at most 2,200 characters; the interaction switches are booleans', () => {
    expect(
      fields(
        tiktok.publishing.checkPublish({
          text: 'a'.repeat(2201),
          media: [video()],
          options: privacy('SELF_ONLY'),
        }),
      ),
    ).toEqual(['text']);
    const switches = {
      privacy_level: 'SELF_ONLY',
      disable_comment: 'yes',
      disable_duet: true,
    } as unknown as PublishDraft['options'];
    expect(fields(tiktok.publishing.checkPublish({ media: [video()], options: switches }))).toEqual([
      'platforms.tiktok.disable_comment',
    ]);
  });

  it('the commercial content disclosure: two booleans, and branded content is never private', () => {
    const disclosed = (privacy_level: string, brand_content_toggle: unknown, brand_organic_toggle: unknown) =>
      ({ privacy_level, brand_content_toggle, brand_organic_toggle }) as unknown as PublishDraft['options'];
    for (const [content, organic] of [
      [true, false],
      [false, true],
      [true, true],
      [false, false],
    ]) {
      expect(
        tiktok.publishing.checkPublish({
          media: [video()],
          options: disclosed('PUBLIC_TO_EVERYONE', content, organic),
        }),
      ).toEqual([]);
    }
    expect(
      fields(tiktok.publishing.checkPublish({ media: [video()], options: disclosed('SELF_ONLY', 'yes', 1) })),
    ).toEqual(['platforms.tiktok.brand_content_toggle', 'platforms.tiktok.brand_organic_toggle']);
    // Content Sharing Guidelines: "Branded content visibility cannot be set to private."
    expect(tiktok.publishing.checkPublish({ media: [video()], options: disclosed('SELF_ONLY', true, false) })).toEqual([
      {
        field: 'platforms.tiktok.brand_content_toggle',
        message: expect.stringContaining('Branded content visibility cannot be set to private.'),
      },
    ]);
    // Promoting one's own business may stay private; friends may see branded content.
    expect(tiktok.publishing.checkPublish({ media: [video()], options: disclosed('SELF_ONLY', false, true) })).toEqual(
      [],
    );
    expect(
      tiktok.publishing.checkPublish({
        media: [video()],
        options: disclosed('MUTUAL_FOLLOW_FRIENDS', true, false),
      }),
    ).toEqual([]);
  });
});

describe('facebook rules', () => {
  it('needs text, a link or images; no video; a link is an absolute http(s) URL', () => {
    expect(facebook.publishing.checkPublish({ text: 'Hello', media: [] })).toEqual([]);
    expect(facebook.publishing.checkPublish({ media: [image, image] })).toEqual([]);
    expect(facebook.publishing.checkPublish({ media: [], options: { link: 'https://example.com/a' } })).toEqual([]);
    expect(fields(facebook.publishing.checkPublish({ text: '', media: [] }))).toEqual(['text']);
    expect(fields(facebook.publishing.checkPublish({ text: 'x', media: [video()] }))).toEqual(['media_ids']);
    for (const link of ['example.com', 'javascript:alert(1)', '/relative']) {
      expect(fields(facebook.publishing.checkPublish({ text: 'x', media: [], options: { link } }))).toEqual([
        'platforms.facebook.link',
      ]);
    }
  });
});
