import { defineConfig } from 'vitest/config';

/**
 * The browser tests (`npm run test:browser`): the hosted connect pages and the dashboard walked in a real
 * headless Chromium (Debian's `chromium` package, at /usr/bin/chromium) driven by
 * playwright-core. Kept out of `npm test` so the main suite needs no browser.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Every shaped statement built again at each run and compared (src/db/prepared.ts), in the
    // tests' processes and the service processes they start.
    env: { SWITCHBOARD_CHECK_STATEMENT_SHAPES: '1' },
    // A browser start, a service start and page loads: slower than the API tests.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // What a page shows after a load (an image fetched with the session's cookie, a list read
    // again) can take seconds on a busy machine: vitest's default of 1 s failed the report's
    // logo check there. A poll that holds returns at once, so the wait costs nothing.
    expect: { poll: { timeout: 15_000 } },
    // One browser at a time.
    maxWorkers: 1,
    // In CI also a JSON report of its own, which .ci/run adds to the main suite's.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results-browser.json' },
  },
});
