/**
 * Meta's usage headers (https://developers.facebook.com/docs/graph-api/overview/rate-limiting):
 * how close the app is to a rate limit, and how long a limit reached asks to wait.
 */
import { header, list, num, type PlatformResponse, parseJson, record } from '../http.ts';

/** The figures a usage header gives as percentages of a limit (Graph API rate-limiting guide). */
const USAGE_FIGURES = ['call_count', 'total_time', 'total_cputime'] as const;

function parsedHeader(response: PlatformResponse, name: string): unknown {
  const raw = header(response, name);
  if (raw === undefined) return undefined;
  try {
    return parseJson(raw);
  } catch {
    return undefined;
  }
}

function highestFigure(entry: unknown): number | null {
  const figures = USAGE_FIGURES.map((name) => num(record(entry)[name])).filter((n): n is number => n !== null);
  return figures.length === 0 ? null : Math.max(...figures);
}

/**
 * The highest share (0-100) of a rate limit an answer's usage headers report, or null when
 * it carries none. `X-App-Usage` is one object `{call_count, total_time, total_cputime}`;
 * `X-Business-Use-Case-Usage` maps each business object id to a list of such objects, one per
 * use case (https://developers.facebook.com/docs/graph-api/overview/rate-limiting). Both are
 * percentages of the limit, and the platform throttles once any reaches 100.
 */
export function usagePercentOf(response: PlatformResponse): number | null {
  const found: number[] = [];
  const app = highestFigure(parsedHeader(response, 'x-app-usage'));
  if (app !== null) found.push(app);
  for (const entries of Object.values(record(parsedHeader(response, 'x-business-use-case-usage')))) {
    for (const entry of list(entries)) {
      const figure = highestFigure(entry);
      if (figure !== null) found.push(figure);
    }
  }
  return found.length === 0 ? null : Math.min(100, Math.max(...found));
}

/** The longest `estimated_time_to_regain_access` (minutes) in a Business Use Case usage header, in seconds. */
export function usageHeaderWait(response: PlatformResponse): number | undefined {
  let minutes: number | undefined;
  for (const entries of Object.values(record(parsedHeader(response, 'x-business-use-case-usage')))) {
    for (const entry of list(entries)) {
      const value = num(record(entry).estimated_time_to_regain_access);
      if (value !== null) minutes = Math.max(minutes ?? 0, value);
    }
  }
  return minutes === undefined ? undefined : minutes * 60;
}
