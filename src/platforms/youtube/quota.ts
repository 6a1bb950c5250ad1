/**
 * YouTube Data API quota units, counted per Google project (the client id) and Pacific Time day
 * where the service is handed a count (`AdapterOptions.projectUnits`). Every call takes its cost
 * before it is made, as Google charges refused calls too. Background reads (comment polls,
 * insight reads) stop when only the reserve kept for publishing is left, until the next
 * midnight Pacific Time; a call a person or a post asked for may spend the day to its end.
 * Facts: docs/platforms.md, "YouTube", Quota.
 */
import { googleError, isDaySpent, midnightPacificAfter, pacificDay, untilMidnightPacific } from '../google/errors.ts';
import type { GoogleClient } from '../google/oauth.ts';
import type { AdapterContext } from '../http.ts';
import { PlatformError, type ProjectUnits } from '../types.ts';

const platform = 'youtube';

/** The Quota Calculator's default: "10,000 units per day combined for all other endpoints". */
const DEFAULT_DAILY_UNITS = 10_000;
/** Units kept for publishing where no setting says: a few dozen videos' processing reads and moves. */
const DEFAULT_RESERVE_UNITS = 1_000;

/**
 * The cost of each Data API call the adapter makes, by method and path under /youtube/v3
 * (Quota Calculator). videos.insert is not here: it is a bucket of calls of its own
 * (`YOUTUBE_DAILY_UPLOADS`). The YouTube Analytics API is not in the Data API's quota.
 */
const COSTS: Readonly<Record<string, number>> = {
  'GET /channels': 1,
  'GET /playlistItems': 1,
  'GET /commentThreads': 1,
  'GET /comments': 1,
  'GET /videos': 1,
  'PUT /videos': 50,
  'DELETE /videos': 50,
  'POST /comments': 50,
  'POST /commentThreads': 50,
  'POST /comments/setModerationStatus': 50,
  'DELETE /comments': 50,
};

/** The units a call costs: 0 for a call outside the Data API's quota. */
function costOf(method: string, url: string): number {
  const path = new URL(url).pathname;
  const at = path.indexOf('/youtube/v3/');
  if (at === -1 || path.includes('/upload/')) return 0;
  return COSTS[`${method} ${path.slice(at + '/youtube/v3'.length)}`] ?? 1;
}

/** Who a call is for: a background read stops at the reserve, an asked one at the day's end. */
type CallPurpose = 'background' | 'asked';

/** The daily units and the reserve, from the settings (validated at start-up). */
export function unitSettings(context: AdapterContext): { daily: number; reserve: number } {
  const settings = context.options.settings;
  return {
    daily: Number(settings?.dailyQuotaUnits ?? DEFAULT_DAILY_UNITS),
    reserve: Number(settings?.quotaReserveUnits ?? DEFAULT_RESERVE_UNITS),
  };
}

/** `google` whose Data API calls take their units first, for `purpose`. */
export function metered(context: AdapterContext, google: GoogleClient, purpose: CallPurpose): GoogleClient {
  const counted = context.options.projectUnits;
  if (counted === undefined) return google;
  const ledger: ProjectUnits = counted;
  const project = context.options.clientId;
  const { daily, reserve } = unitSettings(context);
  const ceiling = purpose === 'background' ? daily - reserve : daily;

  async function spending<T>(method: string, url: string, call: () => Promise<T>): Promise<T> {
    const units = costOf(method, url);
    const at = context.now();
    const day = pacificDay(at);
    if (units > 0) {
      const { taken, used, closed } = await ledger.take(platform, project, day, units, ceiling);
      if (!taken) throw spent(closed ? 'asked' : purpose, { used, daily, reserve }, at);
    }
    try {
      return await call();
    } catch (error) {
      // Google says the day is spent (other uses of the project, or a count begun mid-day):
      // nothing else of the project is tried before midnight Pacific Time.
      if (isDaySpent(error)) {
        await ledger.close(platform, project, day);
      }
      throw error;
    }
  }

  return {
    ...google,
    api: (method, url, token, extra) => spending(method, url, () => google.api(method, url, token, extra)),
    apiEmpty: (method, url, token, extra) => spending(method, url, () => google.apiEmpty(method, url, token, extra)),
  };
}

/** The refusal of a call the day's count leaves no room for, until midnight Pacific Time. */
function spent(purpose: CallPurpose, count: { used: number; daily: number; reserve: number }, at: Date): PlatformError {
  const retryAfterSeconds = untilMidnightPacific(at);
  const renews = midnightPacificAfter(at).toISOString();
  if (purpose === 'background') {
    return new PlatformError(
      'rate_limited',
      `youtube: the Google project's quota units for today are down to the ${count.reserve} kept for publishing (${count.used} of ${count.daily} used); reads resume at ${renews} (YOUTUBE_QUOTA_RESERVE_UNITS, YOUTUBE_DAILY_QUOTA_UNITS)`,
      { platform, code: 'quotaReserved', retryAfterSeconds },
    );
  }
  // As Google words a spent day, so that every path that waits for Google's answer waits for this.
  return googleError(
    platform,
    {
      status: 403,
      headers: {},
      text: '',
      body: {
        error: {
          code: 403,
          message: `The Google project's quota units for today are spent (${count.used} of ${count.daily} counted by the service, or Google answered quotaExceeded); they renew at ${renews}.`,
          errors: [{ reason: 'quotaExceeded', domain: 'youtube.quota' }],
        },
      },
    },
    at,
  );
}
