/**
 * The API versions Meta's Graph hosts serve, on the sandbox's clock. Meta's Graph API
 * Changelog (updated October 29, 2026) lists each version with the day it was introduced and
 * the day it stops being available; its Platform Versioning page says "For APIs, once a version
 * is no longer usable, any calls made to it will be defaulted to the next oldest, usable
 * version". So a call naming an expired version is answered as the oldest version still served
 * (Graph's `facebook-api-version` answer header tells which), and one naming a version not
 * introduced yet, or no version, is an unknown path (Graph's code 2500).
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../platform.ts';
import { graphAnswer } from './errors.ts';

interface ApiVersion {
  readonly version: string;
  /** The day it is served from (UTC); null: from the start. */
  readonly introduced: string | null;
  /** The day it stops being served (UTC); null: no end announced. */
  readonly availableUntil: string | null;
}

/** The Graph API's versions from the Changelog's table; every older one ended long ago. */
export const GRAPH_API_VERSIONS: readonly ApiVersion[] = [
  { version: 'v27.0', introduced: '2026-11-04', availableUntil: null },
  { version: 'v26.0', introduced: '2026-07-29', availableUntil: null },
  { version: 'v25.0', introduced: '2026-02-18', availableUntil: '2028-07-29' },
  { version: 'v24.0', introduced: '2025-10-08', availableUntil: '2028-02-18' },
  { version: 'v23.0', introduced: '2025-05-29', availableUntil: '2027-10-08' },
  { version: 'v22.0', introduced: '2025-01-21', availableUntil: '2027-05-20' },
  { version: 'v21.0', introduced: '2024-10-02', availableUntil: '2027-01-21' },
  { version: 'v20.0', introduced: '2024-05-21', availableUntil: '2026-09-24' },
];

/** graph.threads.net: v1.0 is the only version Threads' pages name, and no end is announced. */
export const THREADS_API_VERSIONS: readonly ApiVersion[] = [
  { version: 'v1.0', introduced: null, availableUntil: null },
];

const VERSION = /^v(\d{1,3})\.(\d{1,2})$/;

/** Orders versions by number: negative when `a` is older. */
function compare(a: string, b: string): number {
  const [, aMajor = '0', aMinor = '0'] = VERSION.exec(a) ?? [];
  const [, bMajor = '0', bMinor = '0'] = VERSION.exec(b) ?? [];
  return Number(aMajor) - Number(bMajor) || Number(aMinor) - Number(bMinor);
}

function dayOf(day: string | null, otherwise: number): number {
  return day === null ? otherwise : Date.parse(`${day}T00:00:00Z`);
}

/**
 * The version that answers a call naming `asked` at `now`: itself while served; the oldest one
 * served when `asked` has ended (`defaultsEnded`: Graph's rule); null when no such version is served.
 */
function servedVersion(
  versions: readonly ApiVersion[],
  asked: string,
  now: Date,
  defaultsEnded: boolean,
): string | null {
  if (!VERSION.test(asked)) return null;
  const at = now.getTime();
  const served = versions.filter((v) => dayOf(v.introduced, -Infinity) <= at && at < dayOf(v.availableUntil, Infinity));
  if (served.some((v) => v.version === asked)) return asked;
  if (!defaultsEnded || served.length === 0) return null;
  const listed = versions.find((v) => v.version === asked);
  const oldestListed = versions.reduce((a, b) => (compare(a.version, b.version) <= 0 ? a : b));
  const ended = listed ? at >= dayOf(listed.availableUntil, Infinity) : compare(asked, oldestListed.version) < 0;
  if (!ended) return null;
  return served.reduce((a, b) => (compare(a.version, b.version) <= 0 ? a : b)).version;
}

/**
 * Checks the version of every call to `host` whose path names one (`/:version/...`); `header`:
 * the answer tells the version that served it in `facebook-api-version`, as Graph's do.
 */
export function servesVersions(
  host: FastifyInstance,
  store: Store,
  versions: readonly ApiVersion[],
  options: { defaultsEnded: boolean; header: boolean },
): void {
  host.addHook('onRequest', async (request, reply) => {
    const asked = (request.params as { version?: string } | undefined)?.version;
    if (asked === undefined) return;
    const served = servedVersion(versions, asked, store.now(), options.defaultsEnded);
    if (served === null) {
      // Graph reads an unknown version as the first part of the path, and names what follows.
      const path = request.url.split('?')[0] ?? '';
      const rest = path.slice(path.indexOf(`/${asked}`) + asked.length + 1);
      throw graphAnswer(400, 2500, `Unknown path components: ${rest === '' ? `/${asked}` : rest}`);
    }
    if (options.header) reply.header('facebook-api-version', served);
  });
}
