import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { isPlatform, PLATFORM_REGISTRY, PLATFORMS, type Platform } from '../../src/platforms/index.ts';
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
    comments: { read: true, reply: true, hide: true, replyToHidden: false, hideReplies: true },
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
    publishing: ['image', 'video', 'carousel'],
    // "JPEG is the only image format supported" (Instagram content publishing).
    containerPublishes: false,
    imageTypes: ['image/jpeg'],
    grantsPages: false,
  },
  threads: {
    label: 'Threads',
    settingsPrefix: 'THREADS',
    comments: { read: true, reply: true, hide: true, replyToHidden: true, hideReplies: false },
    insights: {
      account: ['followers_count', 'views', 'likes', 'replies', 'reposts', 'quotes', 'clicks'],
      post: ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'],
    },
    publishing: ['text', 'image', 'video', 'carousel'],
    // Threads media specification: JPEG and PNG.
    containerPublishes: false,
    imageTypes: ['image/jpeg', 'image/png'],
    grantsPages: false,
  },
  tiktok: {
    label: 'TikTok',
    settingsPrefix: 'TIKTOK',
    comments: { read: false, reply: false, hide: false, replyToHidden: false, hideReplies: false },
    insights: { account: [], post: [] },
    publishing: ['video'],
    // TikTok's video/init is the post: TikTok publishes it by itself once processed.
    containerPublishes: true,
    imageTypes: [],
    grantsPages: false,
  },
  facebook: {
    label: 'Facebook Pages',
    settingsPrefix: 'FACEBOOK',
    comments: { read: true, reply: true, hide: true, replyToHidden: true, hideReplies: true },
    insights: { account: [], post: [] },
    publishing: ['text', 'image', 'carousel'],
    containerPublishes: false,
    imageTypes: ['image/jpeg', 'image/png'],
    grantsPages: true,
  },
};

describe('the platform registry', () => {
  it('lists each platform once, with its label, settings prefix and capabilities', () => {
    expect(PLATFORMS).toEqual(['instagram', 'threads', 'tiktok', 'facebook']);
    expect(PLATFORM_REGISTRY).toEqual(EXPECTED);
    expect(isPlatform('tiktok')).toBe(true);
    expect(isPlatform('myspace')).toBe(false);
    expect(isPlatform('toString')).toBe(false);
  });

  it.each(Object.keys(EXPECTED) as Platform[])('%s: the adapter offers what the registry says', (platform) => {
    const adapter = sandbox.adapter(platform);
    const expected = EXPECTED[platform];
    expect(adapter.metrics).toEqual(expected.insights);
    expect(adapter.grantsPages).toBe(expected.grantsPages);
    // An action the adapter has scopes for is one it supports.
    const actions = adapter.scopes.byAction;
    expect(actions.read_comments !== undefined).toBe(expected.comments.read);
    expect(actions.reply !== undefined).toBe(expected.comments.reply);
    expect(actions.hide !== undefined).toBe(expected.comments.hide);
    expect(actions.read_insights !== undefined).toBe(expected.insights.account.length > 0);
    expect(actions.publish !== undefined).toBe(expected.publishing.length > 0);
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
