import { Redis } from 'ioredis';

/**
 * The rate limit's counts in Redis (REDIS_URL), for `@fastify/rate-limit`'s own Redis store:
 * every API process using that Redis counts against the same window of a key or address.
 *
 * Its timeouts are short, a command is tried once, and none waits for a lost connection: when
 * Redis cannot count a request, the request goes on uncounted (the plugin's `skipOnError`)
 * rather than waiting for it. The log says so once per outage; the URL, which may hold a
 * password, is never logged.
 */
export async function rateLimitRedis(
  url: string,
  /** Both lines of an outage, its start and its end, at the same level (warn), so they are seen together. */
  log: (message: string) => void,
): Promise<Redis> {
  const redis = new Redis(url, {
    // Connected before the API answers, so its first requests are counted; a Redis that is
    // away at the start is logged below and tried again in the background.
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
    // While the connection is down a count fails at once instead of waiting for it.
    enableOfflineQueue: false,
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log(`rate limit: Redis (REDIS_URL) cannot be reached: ${error.message}; requests go uncounted until it answers`);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log('rate limit: Redis (REDIS_URL) answers again');
  });
  await redis.connect().catch(() => {});
  return redis;
}
