/**
 * Sending a request again when the API answers `429` (docs/api-conventions.md, "Rate limit"):
 * after the `Retry-After` it names, a bounded number of times.
 */

export interface RetryOptions {
  /** How many times a request answered `429` is sent again; 0 never. Default 3. */
  max?: number;
  /**
   * The longest wait the client accepts, in milliseconds; default 60 000 (the rate limit's
   * window is a minute). A `Retry-After` beyond it is not waited for: the `429` is the answer.
   */
  maxWaitMs?: number;
}

const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_MAX_WAIT_MS = 60_000;
/** The wait before the first retry when a 429 names none; doubled at each further one. */
const WAIT_WITHOUT_RETRY_AFTER_MS = 1000;

type Send = (request: Request) => Promise<Response>;

/**
 * `send` with retries on `429`. Each attempt sends a clone of `request`, so its body can be sent
 * again (a sent body is consumed); the last possible attempt sends the request itself. Every
 * attempt carries the same headers, so a POST keeps its Idempotency-Key across them. A wait
 * ends early, with the request's abort reason, when its signal aborts.
 */
export function retryingOn429(send: Send, options: RetryOptions = {}): Send {
  const max = options.max ?? DEFAULT_MAX_RETRIES;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  return async (request) => {
    for (let retry = 0; ; retry += 1) {
      const last = retry >= max;
      const response = await send(last ? request : request.clone());
      if (response.status !== 429 || last) return response;
      const waitMs =
        retryAfterMs(response.headers.get('retry-after'), Date.now()) ?? WAIT_WITHOUT_RETRY_AFTER_MS * 2 ** retry;
      if (waitMs > maxWaitMs) return response;
      // Nothing of this answer is read: free its connection before waiting.
      await response.body?.cancel();
      await wait(waitMs, request.signal);
    }
  };
}

/**
 * The wait a `Retry-After` value asks for, in milliseconds: a number of seconds, or an HTTP date
 * (a date already past is no wait). Undefined when the header is absent or neither.
 */
function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Every HTTP date form begins with the day's name; Date.parse alone would take "1.5" as a date.
  if (!/^[A-Za-z]{3}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
