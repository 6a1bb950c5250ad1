/**
 * A Google user's YouTube channels: `GET /youtube/v3/channels` on www.googleapis.com
 * (channels.list, by `mine=true` or by `id`), with its `part`s snippet and statistics.
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { requireScope } from '../caller.ts';
import { google } from '../google/answers.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { addPage, pagesOf } from '../store/accounts.ts';
import { call, SCOPE } from './access.ts';
import { chargedCaller, UNITS } from './units.ts';

/** The channels a sandbox Google user's grant reaches: the one chosen on Google's consent page. */
const CHANNELS_PER_USER = 1;
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** channels.list's `maxResults`: "Acceptable values are 0 to 50, inclusive. The default value is 5." */
const MAX_RESULTS = 50;
const DEFAULT_RESULTS = 5;
/** The parts channels.list answers here (others are ignored, as parts with nothing to say). */
const PARTS = new Set([
  'id',
  'snippet',
  'statistics',
  'contentDetails',
  'status',
  'brandingSettings',
  'topicDetails',
  'localizations',
  'auditDetails',
  'contentOwnerDetails',
]);

/** A channel id as YouTube's look: `UC` and 22 letters, digits, dashes or underscores. */
function channelId(): string {
  return `UC${Array.from({ length: 22 }, () => ID_ALPHABET[randomInt(0, ID_ALPHABET.length)]).join('')}`;
}

/** Makes the channels of a Google user just made, each with videos of its own. */
export async function addChannels(store: Store, user: SandboxAccount): Promise<void> {
  for (let n = 1; n <= CHANNELS_PER_USER; n += 1) {
    await addPage(
      store,
      user,
      {
        username: `${user.username}.channel${n}`,
        name: n === 1 ? user.name : `${user.name} Channel ${n}`,
        instagramBusinessAccountId: null,
      },
      channelId(),
    );
  }
}

/** A channel resource with the parts asked for. */
function renderChannel(channel: SandboxAccount, parts: Set<string>) {
  return {
    kind: 'youtube#channel',
    etag: `etag-${channel.id}`,
    id: channel.id,
    ...(parts.has('snippet')
      ? {
          snippet: {
            title: channel.name,
            description: '',
            // The handle, as YouTube shows it.
            customUrl: `@${channel.username}`,
            publishedAt: channel.createdAt.toISOString(),
            thumbnails: { default: { url: channel.avatarUrl, width: 88, height: 88 } },
            localized: { title: channel.name, description: '' },
          },
        }
      : {}),
    ...(parts.has('contentDetails')
      ? { contentDetails: { relatedPlaylists: { likes: '', uploads: `UU${channel.id.slice(2)}` } } }
      : {}),
    ...(parts.has('statistics')
      ? {
          statistics: {
            viewCount: String(channel.followersCount * 40),
            subscriberCount: String(channel.followersCount),
            hiddenSubscriberCount: false,
            videoCount: '3',
          },
        }
      : {}),
  };
}

export function channelRoutes(app: FastifyInstance, store: Store): void {
  app.get('/youtube/v3/channels', async (request) => {
    const who = await chargedCaller(store, request, UNITS.list);
    const partParam = param(request, 'part');
    if (partParam === undefined || partParam === '')
      throw google.badParameter('No filter selected. Expected one of: part');
    const parts = new Set(partParam.split(',').map((p) => p.trim()));
    for (const part of parts) if (!PARTS.has(part)) throw google.badParameter(`Unknown part: ${part}`);
    const mine = param(request, 'mine') === 'true';
    const ids = param(request, 'id');
    if (mine === (ids !== undefined)) {
      throw google.badParameter(
        'Incompatible parameters specified in the request: exactly one filter (mine, id) is expected.',
      );
    }
    requireScope(who, call, SCOPE.forceSsl, SCOPE.readonly, SCOPE.manage);
    const rawMax = param(request, 'maxResults');
    const max = rawMax === undefined ? DEFAULT_RESULTS : Number(rawMax);
    if (!Number.isInteger(max) || max < 0 || max > MAX_RESULTS) {
      throw google.badParameter(`Invalid value '${rawMax}'. Values must be within the range: [0, 50]`);
    }
    const owned = await pagesOf(store, who.account.id);
    // By id: the channels named that exist (any channel is public; the sandbox knows only its users').
    const wanted = mine ? owned : owned.filter((c) => (ids ?? '').split(',').includes(c.id));
    const start = Math.max(0, Number(param(request, 'pageToken')?.replace(/^p/, '') ?? 0) || 0);
    const items = mine ? wanted.slice(start, start + max) : wanted;
    const next = mine && start + max < wanted.length ? `p${start + max}` : undefined;
    return {
      kind: 'youtube#channelListResponse',
      etag: `etag-${who.account.id}`,
      ...(next === undefined ? {} : { nextPageToken: next }),
      pageInfo: { totalResults: wanted.length, resultsPerPage: max },
      items: items.map((c) => renderChannel(c, parts)),
    };
  });
}
