/**
 * `npm run bench:dashboard` (part of `npm run bench`): what a first visit to the dashboard
 * costs.
 *
 * Starts the real service (`switchboard api`) as a child process on a temporary DATA_DIR, then:
 *   (a) the bytes a first visit downloads: the page and every script and stylesheet it loads,
 *       gzipped as a server would send them (level 9), against the aim of 200 KB;
 *   (b) in headless Chromium (Debian's, /usr/bin/chromium), on loopback: from opening
 *       /dashboard with a signed-in session until the profiles table is on screen, measured
 *       over several cold visits (a new browser context each, so nothing is cached), beside
 *       the floor measured in the same run: the same browser opening /healthz, then fetching
 *       /v1/profiles with the same session from that page.
 * Without Chromium, (b) is reported as not measured; a missed aim is reported, not an error.
 *
 * Settings (environment):
 *   BENCH_DASHBOARD_VISITS   cold visits measured (default 15)
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { runBench } from './harness.ts';
import { met, percentile, positiveIntFromEnv, table } from './report.ts';

const CHROMIUM = '/usr/bin/chromium';
const AIM_FIRST_VISIT_KB = 200;

interface Settings {
  visits: number;
}

let stopping = false;

/** Every file a first visit loads: the page, then the scripts and stylesheets it names. */
async function firstVisitBytes(origin: string): Promise<{ rows: string[][]; gzipped: number }> {
  const page = await (await fetch(`${origin}/dashboard`)).text();
  const assets = [...page.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
  const rows: string[][] = [];
  let gzipped = 0;
  for (const file of ['/dashboard', ...assets]) {
    const response = await fetch(`${origin}${file}`);
    if (!response.ok) throw new Error(`${file}: ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    const zipped = gzipSync(body, { level: 9 }).length;
    gzipped += zipped;
    rows.push([path.basename(file), (body.length / 1024).toFixed(1), (zipped / 1024).toFixed(1)]);
  }
  return { rows, gzipped };
}

async function chromiumPresent(): Promise<boolean> {
  return await fs
    .access(CHROMIUM)
    .then(() => true)
    .catch(() => false);
}

/** Cold visits: ms until the profiles table shows, and the floor's ms, each sorted. */
async function timeToProfiles(origin: string, ownerKey: string, visits: number) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const dashboard: number[] = [];
  const floor: number[] = [];
  try {
    for (let visit = 0; visit < visits && !stopping; visit += 1) {
      const context = await browser.newContext();
      // The session cookie, as sign-in leaves it: the visit measures the screen, not typing a key.
      const signedIn = await context.request.post(`${origin}/v1/session`, {
        headers: { authorization: `Bearer ${ownerKey}` },
        data: {},
      });
      if (signedIn.status() !== 201) throw new Error(`sign-in answered ${signedIn.status()}`);
      const page = await context.newPage();
      let started = performance.now();
      await page.goto(`${origin}/dashboard/profiles`);
      await page.locator('tbody tr').first().waitFor();
      dashboard.push(performance.now() - started);

      const bare = await context.newPage();
      started = performance.now();
      await bare.goto(`${origin}/healthz`);
      const status = await bare.evaluate(
        async (url) => (await fetch(url, { credentials: 'same-origin' })).status,
        `${origin}/v1/profiles`,
      );
      floor.push(performance.now() - started);
      if (status !== 200) throw new Error(`GET /v1/profiles from the page answered ${status}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { dashboard: dashboard.sort((x, y) => x - y), floor: floor.sort((x, y) => x - y) };
}

process.exitCode = await runBench<Settings>({
  name: 'dashboard',
  settings: () => ({ visits: positiveIntFromEnv('BENCH_DASHBOARD_VISITS', 15) }),
  interrupt: () => {
    stopping = true;
  },
  measure: async ({ settings, dataDir, startService }) => {
    process.stderr.write(`starting the server (DATA_DIR ${dataDir}) ...\n`);
    const server = await startService({});
    const bytes = await firstVisitBytes(server.origin);
    const kb = bytes.gzipped / 1024;
    const lines = [
      'Dashboard: first visit',
      '',
      table([['file', 'KB', 'KB gzipped'], ...bytes.rows], [false, true, true]),
      '',
      `(a) downloaded by a first visit: ${kb.toFixed(1)} KB gzipped; aim under ${AIM_FIRST_VISIT_KB} KB: ${met(kb < AIM_FIRST_VISIT_KB)}`,
    ];
    if (!(await chromiumPresent())) {
      lines.push(`(b) time until the profiles screen is usable: not measured (${CHROMIUM} is missing)`);
      return `${lines.join('\n')}\n`;
    }
    const times = await timeToProfiles(server.origin, server.ownerKey, settings.visits);
    const ms = (sorted: number[], p: number) => percentile(sorted, p).toFixed(0);
    lines.push(
      '',
      table(
        [
          ['cold visit (loopback)', 'p50 ms', 'p90 ms', 'visits'],
          [
            '/dashboard/profiles until the table shows',
            ms(times.dashboard, 50),
            ms(times.dashboard, 90),
            String(times.dashboard.length),
          ],
          [
            'floor: /healthz, then fetch /v1/profiles',
            ms(times.floor, 50),
            ms(times.floor, 90),
            String(times.floor.length),
          ],
        ],
        [false, true, true, true],
      ),
      '',
      `(b) the profiles screen is usable ${(percentile(times.dashboard, 50) - percentile(times.floor, 50)).toFixed(0)} ms (p50) after the floor.`,
    );
    return `${lines.join('\n')}\n`;
  },
});
