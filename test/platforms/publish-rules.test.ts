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
      { media: [video(900)], platformOptions: { instagram: { type: 'reel', firstComment: 'First!' } } },
      { media: [image], platformOptions: { instagram: { type: 'story' } } },
      { media: [video(60)], platformOptions: { instagram: { type: 'story' } } },
    ];
    for (const draft of ok) expect(instagram.checkPublish(draft)).toEqual([]);
  });

  it('needs media; a reel is one video; a story is one item; a carousel at most 10', () => {
    expect(instagram.checkPublish({ text: 'words only', media: [] })).toEqual([
      { field: 'media_ids', message: expect.any(String) },
    ]);
    const reel = { instagram: { type: 'reel' as const } };
    expect(fields(instagram.checkPublish({ media: [image], platformOptions: reel }))).toEqual(['media_ids']);
    expect(fields(instagram.checkPublish({ media: [video(), video()], platformOptions: reel }))).toEqual(['media_ids']);
    const story = { instagram: { type: 'story' as const } };
    expect(fields(instagram.checkPublish({ media: [image, image], platformOptions: story }))).toEqual(['media_ids']);
    expect(fields(instagram.checkPublish({ media: Array.from({ length: 11 }, () => image) }))).toEqual(['media_ids']);
  });

  it('video lengths: reels 3 s to 15 min, story and carousel videos at most 60 s', () => {
    const reel = { instagram: { type: 'reel' as const } };
    expect(fields(instagram.checkPublish({ media: [video(901)], platformOptions: reel }))).toEqual(['media_ids']);
    expect(fields(instagram.checkPublish({ media: [video(2)], platformOptions: reel }))).toEqual(['media_ids']);
    expect(fields(instagram.checkPublish({ media: [video(901)] }))).toEqual(['media_ids']);
    const story = { instagram: { type: 'story' as const } };
    expect(fields(instagram.checkPublish({ media: [video(61)], platformOptions: story }))).toEqual(['media_ids']);
    expect(fields(instagram.checkPublish({ media: [image, video(61)] }))).toEqual(['media_ids']);
  });

  it('captions: at most 2,200 characters, 30 hashtags and 20 mentions', () => {
    expect(instagram.checkPublish({ text: 'a'.repeat(2200), media: [image] })).toEqual([]);
    expect(fields(instagram.checkPublish({ text: 'a'.repeat(2201), media: [image] }))).toEqual(['text']);
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `#tag${i}`).join(' ');
    expect(instagram.checkPublish({ text: tags(30), media: [image] })).toEqual([]);
    expect(fields(instagram.checkPublish({ text: tags(31), media: [image] }))).toEqual(['text']);
    const mentions = Array.from({ length: 21 }, (_, i) => `@user${i}`).join(' ');
    expect(fields(instagram.checkPublish({ text: mentions, media: [image] }))).toEqual(['text']);
  });

  it('options: the type among feed, reel, story; a first comment with text, never on a story', () => {
    const bad = { instagram: { type: 'carousel' } } as unknown as PublishDraft['platformOptions'];
    expect(fields(instagram.checkPublish({ media: [image], platformOptions: bad }))).toEqual([
      'platforms.instagram.type',
    ]);
    expect(
      fields(instagram.checkPublish({ media: [image], platformOptions: { instagram: { firstComment: '  ' } } })),
    ).toEqual(['platforms.instagram.first_comment']);
    expect(
      fields(
        instagram.checkPublish({
          media: [image],
          platformOptions: { instagram: { type: 'story', firstComment: 'hi' } },
        }),
      ),
    ).toEqual(['platforms.instagram.first_comment']);
  });

  it('lists every problem at once', () => {
    expect(
      fields(
        instagram.checkPublish({
          text: 'a'.repeat(2201),
          media: [],
          platformOptions: { instagram: { firstComment: '' } },
        }),
      ),
    ).toEqual(['text', 'media_ids', 'platforms.instagram.first_comment']);
  });
});

describe('threads rules', () => {
  it('text at most 500 as Threads counts it (an emoji as its UTF-8 bytes)', () => {
    expect(threads.checkPublish({ text: 'a'.repeat(500), media: [] })).toEqual([]);
    expect(fields(threads.checkPublish({ text: 'a'.repeat(501), media: [] }))).toEqual(['text']);
    // 124 emoji of 4 bytes and 4 letters: 500; one more letter: 501.
    expect(threads.checkPublish({ text: `${'😀'.repeat(124)}abcd`, media: [] })).toEqual([]);
    expect(fields(threads.checkPublish({ text: `${'😀'.repeat(124)}abcde`, media: [] }))).toEqual(['text']);
  });

  it('needs text or media; a carousel has at most 20 items; videos at most 5 minutes', () => {
    expect(fields(threads.checkPublish({ text: ' ', media: [] }))).toEqual(['text']);
    expect(threads.checkPublish({ media: Array.from({ length: 20 }, () => image) })).toEqual([]);
    expect(fields(threads.checkPublish({ media: Array.from({ length: 21 }, () => image) }))).toEqual(['media_ids']);
    expect(fields(threads.checkPublish({ media: [video(301)] }))).toEqual(['media_ids']);
  });

  it('reply_control among Threads five values; topic_tag 1 to 50 characters without . or &', () => {
    for (const replyControl of [
      'everyone',
      'accounts_you_follow',
      'mentioned_only',
      'parent_post_author_only',
      'followers_only',
    ] as const) {
      expect(threads.checkPublish({ text: 'x', media: [], platformOptions: { threads: { replyControl } } })).toEqual(
        [],
      );
    }
    const bad = { threads: { replyControl: 'nobody' } } as unknown as PublishDraft['platformOptions'];
    expect(fields(threads.checkPublish({ text: 'x', media: [], platformOptions: bad }))).toEqual([
      'platforms.threads.reply_control',
    ]);
    const tag = (topicTag: string) =>
      fields(threads.checkPublish({ text: 'x', media: [], platformOptions: { threads: { topicTag } } }));
    expect(tag('a'.repeat(50))).toEqual([]);
    expect(tag('a'.repeat(51))).toEqual(['platforms.threads.topic_tag']);
    expect(tag('')).toEqual(['platforms.threads.topic_tag']);
    expect(tag('dogs.cats')).toEqual(['platforms.threads.topic_tag']);
    expect(tag('salt & pepper')).toEqual(['platforms.threads.topic_tag']);
  });
});

describe('tiktok rules', () => {
  const privacy = (privacyLevel: string) => ({ tiktok: { privacyLevel } });

  it('exactly one video and a privacy level among TikTok four', () => {
    for (const level of ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY']) {
      expect(tiktok.checkPublish({ media: [video()], platformOptions: privacy(level) })).toEqual([]);
    }
    expect(fields(tiktok.checkPublish({ media: [image], platformOptions: privacy('SELF_ONLY') }))).toEqual([
      'media_ids',
    ]);
    expect(fields(tiktok.checkPublish({ media: [video(), video()], platformOptions: privacy('SELF_ONLY') }))).toEqual([
      'media_ids',
    ]);
    expect(fields(tiktok.checkPublish({ text: 'x', media: [], platformOptions: privacy('SELF_ONLY') }))).toEqual([
      'media_ids',
    ]);
    expect(fields(tiktok.checkPublish({ media: [video()] }))).toEqual(['platforms.tiktok.privacy_level']);
    expect(fields(tiktok.checkPublish({ media: [video()], platformOptions: privacy('FRIENDS') }))).toEqual([
      'platforms.tiktok.privacy_level',
    ]);
  });

  it('a title at most 2,200 characters; the interaction switches are booleans', () => {
    expect(
      fields(tiktok.checkPublish({ text: 'a'.repeat(2201), media: [video()], platformOptions: privacy('SELF_ONLY') })),
    ).toEqual(['text']);
    const switches = {
      tiktok: { privacyLevel: 'SELF_ONLY', disableComment: 'yes', disableDuet: true },
    } as unknown as PublishDraft['platformOptions'];
    expect(fields(tiktok.checkPublish({ media: [video()], platformOptions: switches }))).toEqual([
      'platforms.tiktok.disable_comment',
    ]);
  });

  it('the commercial content disclosure: two booleans, and branded content is never private', () => {
    const disclosed = (privacyLevel: string, brandContentToggle: unknown, brandOrganicToggle: unknown) =>
      ({
        tiktok: { privacyLevel, brandContentToggle, brandOrganicToggle },
      }) as unknown as PublishDraft['platformOptions'];
    for (const [content, organic] of [
      [true, false],
      [false, true],
      [true, true],
      [false, false],
    ]) {
      expect(
        tiktok.checkPublish({ media: [video()], platformOptions: disclosed('PUBLIC_TO_EVERYONE', content, organic) }),
      ).toEqual([]);
    }
    expect(
      fields(tiktok.checkPublish({ media: [video()], platformOptions: disclosed('SELF_ONLY', 'yes', 1) })),
    ).toEqual(['platforms.tiktok.brand_content_toggle', 'platforms.tiktok.brand_organic_toggle']);
    // Content Sharing Guidelines: "Branded content visibility cannot be set to private."
    expect(tiktok.checkPublish({ media: [video()], platformOptions: disclosed('SELF_ONLY', true, false) })).toEqual([
      {
        field: 'platforms.tiktok.brand_content_toggle',
        message: expect.stringContaining('Branded content visibility cannot be set to private.'),
      },
    ]);
    // Promoting one's own business may stay private; friends may see branded content.
    expect(tiktok.checkPublish({ media: [video()], platformOptions: disclosed('SELF_ONLY', false, true) })).toEqual([]);
    expect(
      tiktok.checkPublish({ media: [video()], platformOptions: disclosed('MUTUAL_FOLLOW_FRIENDS', true, false) }),
    ).toEqual([]);
  });
});

describe('facebook rules', () => {
  it('needs text, a link or images; no video; a link is an absolute http(s) URL', () => {
    expect(facebook.checkPublish({ text: 'Hello', media: [] })).toEqual([]);
    expect(facebook.checkPublish({ media: [image, image] })).toEqual([]);
    expect(
      facebook.checkPublish({ media: [], platformOptions: { facebook: { link: 'https://example.com/a' } } }),
    ).toEqual([]);
    expect(fields(facebook.checkPublish({ text: '', media: [] }))).toEqual(['text']);
    expect(fields(facebook.checkPublish({ text: 'x', media: [video()] }))).toEqual(['media_ids']);
    for (const link of ['example.com', 'javascript:alert(1)', '/relative']) {
      expect(fields(facebook.checkPublish({ text: 'x', media: [], platformOptions: { facebook: { link } } }))).toEqual([
        'platforms.facebook.link',
      ]);
    }
  });
});
