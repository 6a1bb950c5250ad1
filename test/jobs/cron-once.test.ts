/**
 * docs/deployment.md, "Processes": the periodic tasks run once per tick however many worker
 * processes there are. Two real `worker` processes on one database, across one minute's tick:
 * each every-minute task completes exactly once, in one of them.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/database.ts';
import { cleanupDataDirs, makeDataDir, startCli, stopAllCli } from '../helpers/process.ts';

/** tasks.ts's every-minute tasks (queue.ts: `schedule: '* * * * *'`). */
const EVERY_MINUTE = [
  'refresh_platform_tokens',
  'schedule_comment_polls',
  'schedule_insight_refreshes',
  'schedule_notice_subscriptions',
];

afterAll(async () => {
  await stopAllCli();
  await cleanupDataDirs();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('periodic tasks with several worker processes', () => {
  it('runs each every-minute task once per tick, in one process of two', { timeout: 180_000 }, async () => {
    const database = await createTestDatabase();
    try {
      // Start early in a minute, so both processes run well before the next tick.
      const second = new Date().getSeconds();
      if (second > 20) await sleep((60 - second) * 1000 + 500);
      const env = {
        DATABASE_URL: database.url,
        SECRET_KEY: randomBytes(32).toString('hex'),
        // Each completed job is logged at debug (src/jobs/worker-log.ts).
        LOG_LEVEL: 'debug',
      };
      const workers = [
        startCli(['worker'], { ...env, DATA_DIR: await makeDataDir() }),
        startCli(['worker'], { ...env, DATA_DIR: await makeDataDir() }),
      ];
      for (const w of workers) await w.waitFor(/is running\./, { timeoutMs: 30_000 });
      const running = new Date();
      const tick = new Date(running);
      tick.setSeconds(60, 0);
      expect(tick.getTime() - running.getTime(), 'both processes run before the tick').toBeGreaterThan(5_000);
      // The tick, and time for its jobs to run.
      await sleep(tick.getTime() - Date.now() + 20_000);
      const completions = (task: string) =>
        workers.map((w) => w.stdout.match(new RegExp(`Completed task \\d+ \\(${task}, `, 'g'))?.length ?? 0);
      for (const task of EVERY_MINUTE) {
        const perProcess = completions(task);
        expect(
          perProcess.reduce((a, b) => a + b),
          `${task}: ${perProcess.join(' + ')}`,
        ).toBe(1);
      }
      for (const w of workers) expect((await w.stop()).code).toBe(0);
    } finally {
      await database.close();
    }
  });
});
