import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { isPlatform, PLATFORMS, type Platform, platformInfo, settingsPrefix } from '../../src/platforms/index.ts';
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
    comments: { replyToHidden: false, hideReplies: true },
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
    },
    grantsPages: false,
  },
  threads: {
    label: 'Threads',
    settingsPrefix: 'THREADS',
    comments: { replyToHidden: true, hideReplies: false },
    insights: {
      account: ['followers_count', 'views', 'likes', 'replies', 'reposts', 'quotes', 'clicks'],
      post: ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'],
    },
    publishing: {
      kinds: ['text', 'image', 'video', 'carousel'],
      // Threads media specification: JPEG and PNG.
      containerPublishes: false,
      imageTypes: ['image/jpeg', 'image/png'],
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
    },
    grantsPages: false,
  },
  facebook: {
    label: 'Facebook Pages',
    settingsPrefix: 'FACEBOOK',
    comments: { replyToHidden: true, hideReplies: true },
    insights: null,
    publishing: {
      kinds: ['text', 'image', 'carousel'],
      containerPublishes: false,
      imageTypes: ['image/jpeg', 'image/png'],
    },
    grantsPages: true,
  },
};

describe('the platform registry', () => {
  it('lists each platform once, with its label, settings prefix and capabilities', () => {
    expect(PLATFORMS).toEqual(['instagram', 'threads', 'tiktok', 'facebook']);
    for (const platform of PLATFORMS) {
      const { label, grantsPages, comments, insights, publishing } = platformInfo(platform);
      const { kinds, containerPublishes, imageTypes } = publishing;
      expect({
        label,
        settingsPrefix: settingsPrefix(platform),
        comments,
        insights,
        publishing: { kinds, containerPublishes, imageTypes },
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
    expect(actions.hide !== undefined).toBe(expected.comments !== null);
    expect(actions.read_insights !== undefined).toBe(expected.insights !== null);
    expect(actions.publish !== undefined).toBe(expected.publishing.kinds.length > 0);
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
