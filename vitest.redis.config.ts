import { defineConfig } from 'vitest/config';

/**
 * The tests that need a Redis server (`npm run test:redis`): Debian's `redis-server`, which each
 * test starts on a port of its own (test/redis/). Kept out of `npm test`, which needs nothing
 * but Node.js; .ci/run installs the package and runs them.
 */
export default defineConfig({
  test: {
    include: ['test/redis/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Every shaped statement built again at each run and compared (src/db/prepared.ts), in the
    // tests' processes and the service processes they start.
    env: { SWITCHBOARD_CHECK_STATEMENT_SHAPES: '1' },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results-redis.json' },
  },
});
