import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser tests need Chromium: `npm run test:browser` (vitest.browser.config.ts); the
    // tests under faults take minutes: `npm run test:faults` (vitest.faults.config.ts); those of
    // the Redis rate limit need Debian's redis-server: `npm run test:redis` (vitest.redis.config.ts).
    exclude: [...configDefaults.exclude, 'test/browser/**', 'test/faults/**', 'test/redis/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Every shaped statement built again at each run and compared (src/db/prepared.ts), in the
    // tests' processes and the service processes they start.
    env: { SWITCHBOARD_CHECK_STATEMENT_SHAPES: '1' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two files at a time, each with its own database.
    maxWorkers: 2,
    // In CI also a JSON report, from which .ci/run prints a plain "N passed, N failed" line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results.json' },
  },
});
