import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('settings', () => {
  it('has a default for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      rateLimitPerMinute: 600,
      bodyLimitBytes: 1024 * 1024,
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 20_000,
    });
  });

  it('trusts no proxy by default, and takes TRUST_PROXY as true, a number of hops, or addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,2001:db8::/32' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
      '2001:db8::/32',
    ]);
    for (const loose of ['100', '1.2', '0x7f.1']) {
      expect(() => loadConfig({ TRUST_PROXY: loose }), loose).toThrow(`${JSON.stringify(loose)} is none`);
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8,the load balancer' })).toThrow(
      'invalid settings: TRUST_PROXY must be true, false, a number of hops, or addresses and ranges (CIDR) separated by commas: "the load balancer" is none',
    );
  });

  it('takes a number only written as a whole decimal number, naming every other one in one error', () => {
    expect(loadConfig({ PORT: '0', DB_POOL_SIZE: '12', HEADERS_TIMEOUT_MS: '5000' })).toMatchObject({
      port: 0,
      dbPoolSize: 12,
      headersTimeoutMs: 5000,
    });
    expect(() =>
      loadConfig({ PORT: '0x10', DB_POOL_SIZE: '1.5', WORKER_CONCURRENCY: '1e1', HEADERS_TIMEOUT_MS: ' 5000' }),
    ).toThrow(
      'invalid settings: PORT="0x10": must be integer; DB_POOL_SIZE="1.5": must be integer; WORKER_CONCURRENCY="1e1": must be integer; HEADERS_TIMEOUT_MS=" 5000": must be integer',
    );
    expect(() => loadConfig({ PORT: 'abc' })).toThrow('invalid settings: PORT="abc": must be integer');
    expect(() => loadConfig({ DB_POOL_SIZE: '0' })).toThrow('DB_POOL_SIZE="0"');
  });

  it('takes request and header timeouts, the header one at most the request one', () => {
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '120000', HEADERS_TIMEOUT_MS: '5000' })).toMatchObject({
      requestTimeoutMs: 120_000,
      headersTimeoutMs: 5000,
    });
    // Unset, the header timeout is 20 s or the request timeout when that is shorter.
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '3000' })).toMatchObject({
      requestTimeoutMs: 3000,
      headersTimeoutMs: 3000,
    });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '3000', HEADERS_TIMEOUT_MS: '4000' })).toThrow(
      'invalid settings: HEADERS_TIMEOUT_MS="4000": must not be more than REQUEST_TIMEOUT_MS (3000)',
    );
  });

  it("refuses a YouTube reserve of units that leaves comment polls and insight reads none of the day's", () => {
    expect(() => loadConfig({ YOUTUBE_DAILY_QUOTA_UNITS: '500' })).toThrow(
      'invalid settings: YOUTUBE_QUOTA_RESERVE_UNITS=1000: must be less than YOUTUBE_DAILY_QUOTA_UNITS (500)',
    );
    expect(() => loadConfig({ YOUTUBE_QUOTA_RESERVE_UNITS: '10000' })).toThrow(
      'YOUTUBE_QUOTA_RESERVE_UNITS=10000: must be less than YOUTUBE_DAILY_QUOTA_UNITS (10000)',
    );
    expect(loadConfig({ YOUTUBE_DAILY_QUOTA_UNITS: '500', YOUTUBE_QUOTA_RESERVE_UNITS: '100' })).toMatchObject({
      youtubeDailyQuotaUnits: '500',
      youtubeQuotaReserveUnits: '100',
    });
  });

  it('never shows a secret or a password in its error', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://:hunter2@redis.internal:6379' })).toThrow(
      'invalid settings: REDIS_URL="http://:***@redis.internal:6379": must match pattern "^rediss?://"',
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://app:hunter2@db/app' })).toThrow(
      'invalid settings: DATABASE_URL="mysql://app:***@db/app"',
    );
    expect(() => loadConfig({ SECRET_KEY: 'hunter2' })).toThrow('invalid settings: SECRET_KEY=(hidden)');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it('converts numbers and trims a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({ PORT: '9000', PUBLIC_URL: 'https://api.example.com/', RATE_LIMIT_PER_MINUTE: '5' });
    expect(config).toMatchObject({ port: 9000, publicUrl: 'https://api.example.com', rateLimitPerMinute: 5 });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_URL', 'ftp://x'],
    ['SECRET_KEY', 'short'],
    ['REQUEST_TIMEOUT_MS', '999'],
    ['REQUEST_TIMEOUT_MS', '3600001'],
    ['HEADERS_TIMEOUT_MS', '999'],
    ['HEADERS_TIMEOUT_MS', 'soon'],
  ])('rejects %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}=`));
  });

  it('uses the sandbox platforms unless some platform credentials are set', () => {
    expect(loadConfig({})).toMatchObject({ platforms: 'sandbox', sandboxUrl: undefined, platformCredentials: {} });
    expect(loadConfig({ PUBLIC_URL: 'https://sb.example.com/' }).sandboxUrl).toBe('https://sb.example.com/sandbox');
    const live = loadConfig({ THREADS_CLIENT_ID: 'id1', THREADS_CLIENT_SECRET: 'secret1' });
    expect(live).toMatchObject({
      platforms: 'live',
      platformCredentials: { threads: { clientId: 'id1', clientSecret: 'secret1' } },
    });
    const forced = loadConfig({ PLATFORMS: 'sandbox', TIKTOK_CLIENT_ID: 'k', TIKTOK_CLIENT_SECRET: 's' });
    expect(forced.platforms).toBe('sandbox');
    expect(loadConfig({ SANDBOX_URL: 'http://sandbox.local:8090/sandbox/' }).sandboxUrl).toBe(
      'http://sandbox.local:8090/sandbox',
    );
  });

  it("reads THREADS_TESTER_TOKEN, a token without spaces, which leaves the platforms' mode alone", () => {
    expect(loadConfig({}).threadsTesterToken).toBeUndefined();
    expect(loadConfig({ THREADS_TESTER_TOKEN: 'THAAtester' })).toMatchObject({
      threadsTesterToken: 'THAAtester',
      platforms: 'sandbox',
    });
    expect(() => loadConfig({ THREADS_TESTER_TOKEN: 'two words' })).toThrow(/THREADS_TESTER_TOKEN=/);
  });

  it('wants a platform client id and secret together', () => {
    expect(() => loadConfig({ INSTAGRAM_CLIENT_ID: 'only-id' })).toThrow(
      /INSTAGRAM_CLIENT_ID and INSTAGRAM_CLIENT_SECRET must be set together/,
    );
    expect(() => loadConfig({ PLATFORMS: 'real' })).toThrow(/PLATFORMS=/);
  });

  it("wants Google Business Profile's Pub/Sub topic with its push service account, and an address for its pushes when live", () => {
    const topic = 'projects/p/topics/reviews';
    const pusher = 'push@p.iam.gserviceaccount.com';
    expect(() => loadConfig({ GOOGLE_BUSINESS_PUBSUB_TOPIC: topic })).toThrow(
      /GOOGLE_BUSINESS_PUBSUB_TOPIC and GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT must be set together/,
    );
    expect(() => loadConfig({ GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: pusher })).toThrow(/must be set together/);
    const live = {
      PLATFORMS: 'live',
      GOOGLE_BUSINESS_PUBSUB_TOPIC: topic,
      GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: pusher,
    };
    expect(() => loadConfig(live)).toThrow(/GOOGLE_BUSINESS_PUBSUB_TOPIC needs PUBLIC_URL/);
    expect(() => loadConfig({ ...live, PUBLIC_URL: 'https://switchboard.example' })).not.toThrow();
    expect(() => loadConfig({ ...live, GOOGLE_BUSINESS_PUSH_AUDIENCE: 'reviews-push' })).not.toThrow();
  });

  it('keeps media under DATA_DIR unless S3_BUCKET names a store', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(
      loadConfig({
        S3_BUCKET: 'agency-media',
        S3_ENDPOINT: 'http://garage:3900/',
        S3_REGION: 'garage',
        S3_ACCESS_KEY_ID: 'GK31c2f218a2e44f485b94239e',
        S3_SECRET_ACCESS_KEY: 'b892c0665f0ada8a4755dae98baa3b133590e11dae3bcc1f9d769d67f16c3835',
      }).s3,
    ).toEqual({
      bucket: 'agency-media',
      endpoint: 'http://garage:3900',
      region: 'garage',
      credentials: {
        accessKeyId: 'GK31c2f218a2e44f485b94239e',
        secretAccessKey: 'b892c0665f0ada8a4755dae98baa3b133590e11dae3bcc1f9d769d67f16c3835',
      },
      // Another store than AWS: addressed by path unless told otherwise.
      forcePathStyle: true,
      presignedUrls: false,
    });
    // AWS itself: the SDK's own credentials chain, virtual-hosted addresses.
    expect(loadConfig({ S3_BUCKET: 'agency-media', S3_REGION: 'eu-west-1', S3_PRESIGNED_URLS: 'true' }).s3).toEqual({
      bucket: 'agency-media',
      endpoint: undefined,
      region: 'eu-west-1',
      credentials: undefined,
      forcePathStyle: false,
      presignedUrls: true,
    });
  });

  it('refuses S3 settings that could not take effect', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://garage:3900' })).toThrow(
      /S3_ENDPOINT need S3_BUCKET: without it media stay under DATA_DIR/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'Not_A_Bucket' })).toThrow(/S3_BUCKET=/);
    expect(() => loadConfig({ S3_BUCKET: 'media', S3_ENDPOINT: 'garage:3900' })).toThrow(/S3_ENDPOINT=/);
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT=.*LOG_LEVEL=|LOG_LEVEL=.*PORT=/);
  });
});
