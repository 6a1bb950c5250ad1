import pino from 'pino';
import type { PlatformSet } from '../../src/platforms/index.ts';
import type { TestApp } from './app.ts';
import { eventually } from './eventually.ts';

/** Once every comment notice queued has been stored (no `ingest_comment_notices` job due; a retry of one waits its turn). */
export async function noticeJobsDone(t: TestApp): Promise<void> {
  await eventually(async () => {
    const { rows } = await t.database.pool.query(
      `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'ingest_comment_notices' and run_at <= now()`,
    );
    return rows[0].n === 0 ? true : undefined;
  });
}

/** What pollComments needs, to poll an account of `t` at once through `platforms`. */
export function pollDeps(t: TestApp, platforms: PlatformSet) {
  return {
    db: t.database.db,
    log: pino({ level: 'silent' }),
    platforms: () => platforms,
    secretKey: t.secretKey,
    commentPollIntervalMs: 900_000,
  };
}
