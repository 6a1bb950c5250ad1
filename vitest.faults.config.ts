import { defineConfig } from 'vitest/config';

/**
 * The tests under faults (`npm run test:faults`): the service as real processes on a PostgreSQL
 * server of the test's own, through crashes and outages (test/faults/). Minutes long, so kept
 * out of `npm test`; .ci/run runs them.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Every shaped statement built again at each run and compared (src/db/prepared.ts), in the
    // tests' processes and the service processes they start.
    env: { SWITCHBOARD_CHECK_STATEMENT_SHAPES: '1' },
    testTimeout: 300_000,
    hookTimeout: 180_000,
    // The faults run one after another on one set of processes.
    maxWorkers: 1,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results-faults.json' },
  },
});
