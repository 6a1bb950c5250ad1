/**
 * A Google user's YouTube channels (channels.list with mine=true), each becoming an account,
 * and a channel's own profile (channels.list by id): title, handle, picture, subscribers.
 */
import type { GoogleClient } from '../google/oauth.ts';
import { type AdapterContext, list, num, record, requiredText, str } from '../http.ts';
import type { AccountCredentials, PageGrant, PlatformProfile } from '../types.ts';

const platform = 'youtube';
/** channels.list's largest page ("Acceptable values are 0 to 50"). */
const PAGE = 50;
/** Pages of channels read at most: far more than a Google user owns. */
const MAX_PAGES = 20;

export interface YouTubeContext extends AdapterContext {
  /** Google's API, each Data API call counted in the project's units up to the day's end. */
  readonly google: GoogleClient;
  /** The same for background reads (comment polls, insights): they stop at the reserve kept for publishing. */
  readonly reads: GoogleClient;
}

const channelsUrl = ({ google }: YouTubeContext) => google.url('www.googleapis.com', '/youtube/v3/channels');

function picture(snippet: Record<string, unknown>): string | null {
  const thumbnails = record(snippet.thumbnails);
  return str(record(thumbnails.default).url) ?? str(record(thumbnails.medium).url);
}

/** The channels the login owns, paged by `pageToken`. */
export async function youtubeChannels(
  context: YouTubeContext,
  { accessToken }: AccountCredentials,
): Promise<PageGrant[]> {
  const pages: PageGrant[] = [];
  let pageToken: string | null = null;
  for (let n = 0; n < MAX_PAGES; n += 1) {
    const answer = await context.google.api('GET', channelsUrl(context), accessToken, {
      query: { part: 'snippet', mine: true, maxResults: PAGE, ...(pageToken === null ? {} : { pageToken }) },
    });
    for (const item of list(answer.items)) {
      const channel = record(item);
      const id = str(channel.id);
      if (id === null || pages.some((p) => p.id === id)) continue;
      const snippet = record(channel.snippet);
      // Acted on with the login's own token: Google has no token per channel.
      pages.push({
        id,
        name: str(snippet.title) ?? id,
        avatarUrl: picture(snippet),
        accessToken: null,
        instagramBusinessAccountId: null,
      });
    }
    pageToken = str(answer.nextPageToken);
    if (pageToken === null || pageToken === '') break;
  }
  return pages;
}

export async function youtubeProfile(
  context: YouTubeContext,
  { platformUserId, accessToken }: AccountCredentials,
): Promise<PlatformProfile> {
  const answer = await context.google.api('GET', channelsUrl(context), accessToken, {
    query: { part: 'snippet,statistics', id: platformUserId },
  });
  const channel = record(list(answer.items)[0]);
  const snippet = record(channel.snippet);
  const statistics = record(channel.statistics);
  return {
    id: requiredText(platform, channel.id, 'id'),
    // The channel's handle (`@name`), where it has one.
    username: str(snippet.customUrl),
    name: str(snippet.title),
    avatarUrl: picture(snippet),
    // A channel that hides its subscriber count answers hiddenSubscriberCount: true and no count to trust.
    followersCount: statistics.hiddenSubscriberCount === true ? null : num(statistics.subscriberCount),
  };
}
