/**
 * The catalogue of platforms (GET /v1/platforms): every fact the screens show of a platform,
 * its label, its text limit and how it counts, its post options, whether the service reads
 * its comments and insights and whether it can connect accounts there, is read from it, so a
 * platform the service adds needs no change here.
 *
 * It is read once, before the first screen shows (the shell waits for it beside the session),
 * and all but each platform's `availability` is the same for every key and does not change
 * while the service runs. So it is kept here once read, and plain functions (an account's
 * label) read it as screens do, without it being handed down through every screen. The
 * availability is the owner's and changes when the owner sets or removes its own app, so a
 * screen that offers platforms for connecting reads the owner's apps beside it.
 */
import type { ListItem } from '../../src/client/index.ts';
import { answer, api } from './api.ts';

export type PlatformEntry = ListItem<'/v1/platforms'>;
export type Platform = PlatformEntry['platform'];

let entries: readonly PlatformEntry[] | null = null;
let reading: Promise<void> | null = null;

/** Reads the catalogue, unless it was read already; a failed reading is tried again by the next call. */
export function loadCatalogue(): Promise<void> {
  if (entries) return Promise.resolve();
  reading ??= answer(api.GET('/v1/platforms')).then(
    (page) => {
      entries = page.data;
    },
    (error: unknown) => {
      reading = null;
      throw error;
    },
  );
  return reading;
}

/**
 * Reads the catalogue for a session just begun. A reading already on its way may have been sent
 * signed out (the page asks beside the session check), and would answer 401: it is let finish,
 * whatever it answers, and the catalogue read again if it did not succeed.
 */
export function loadCatalogueForSession(): Promise<void> {
  const earlier = reading ?? Promise.resolve();
  return earlier.catch(() => undefined).then(loadCatalogue);
}

/** Every platform, in the catalogue's order (the order screens offer them in). */
export function platforms(): readonly PlatformEntry[] {
  if (!entries) throw new Error('The catalogue of platforms is read before any screen shows.');
  return entries;
}

export function platformEntry(platform: Platform): PlatformEntry | undefined {
  return platforms().find((p) => p.platform === platform);
}

/** The name people know the platform by ("Facebook Pages"); its value for one the catalogue does not list. */
export function platformLabel(platform: Platform): string {
  return platformEntry(platform)?.label ?? platform;
}

const and = new Intl.ListFormat('en-GB', { type: 'conjunction' });
const or = new Intl.ListFormat('en-GB', { type: 'disjunction' });

/** The platforms' labels in a sentence: "Instagram and Threads", or with `'or'` "Instagram or Threads". */
export function labelList(list: readonly PlatformEntry[], joiner: 'and' | 'or' = 'and'): string {
  return (joiner === 'and' ? and : or).format(list.map((p) => p.label));
}
