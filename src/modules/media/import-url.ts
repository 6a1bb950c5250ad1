/**
 * `POST /v1/media` with `{"url"}`: the file is fetched through the SSRF-safe outbound client
 * (the same address rules as webhook URLs) and ingested as it streams, so the size limit cuts
 * off an oversized or endless answer instead of filling the disk.
 */
import type { Agent } from 'undici';
import { ApiError } from '../../http/errors.ts';
import { checkOutboundUrl, type UrlPolicy } from '../../outbound/address-policy.ts';
import { getStream } from '../../outbound/http-client.ts';
import { discard, type IngestedFile, ingest, largestLimit, type SizeLimits, tooLarge } from './ingest.ts';
import type { MediaStorage } from './storage.ts';

/** How long the remote server may take to answer, to send each next piece, and the whole file. */
const HEADERS_TIMEOUT_MS = 30_000;
const IDLE_TIMEOUT_MS = 30_000;
const TOTAL_TIMEOUT_MS = 10 * 60_000;

const fetchFailed = (url: string, why: string) =>
  new ApiError(422, 'media_fetch_failed', `Fetching ${url} failed: ${why}.`, { reason: why });

export async function importFromUrl(
  deps: { agent: Agent; urlPolicy: UrlPolicy; storage: MediaStorage; limits: SizeLimits },
  url: string,
): Promise<IngestedFile> {
  const check = await checkOutboundUrl(url, deps.urlPolicy);
  if (!check.ok) {
    throw new ApiError(422, 'invalid_media_url', `The media URL is not allowed: ${check.reason}.`, {
      reason: check.reason,
    });
  }
  const href = check.url.href;
  const response = await getStream(deps.agent, href, {
    headersTimeoutMs: HEADERS_TIMEOUT_MS,
    idleTimeoutMs: IDLE_TIMEOUT_MS,
    // A server trickling bytes just fast enough would otherwise hold the request for ever.
    signal: AbortSignal.timeout(TOTAL_TIMEOUT_MS),
  });
  if ('error' in response) throw fetchFailed(href, response.error);
  if (response.status < 200 || response.status > 299) {
    discard(response.body);
    const redirect = response.status >= 300 && response.status < 400 ? '; redirects are not followed' : '';
    throw fetchFailed(href, `the server answered ${response.status}${redirect}`);
  }
  const largest = largestLimit(deps.limits);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > largest.limit) {
    discard(response.body);
    throw tooLarge(largest.type, largest.limit);
  }
  try {
    return await ingest(response.body, deps.storage, deps.limits);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // The connection broke off or went quiet while the file was arriving.
    throw fetchFailed(href, error instanceof Error ? error.message : 'the transfer broke off');
  }
}
