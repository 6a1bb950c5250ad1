/**
 * Loaded with `--import` into a process a bench starts: records the process's waits
 * (waits.ts) and writes them to `$BENCH_WAITS_DIR/<pid>.json` when it exits.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { recordedWaits, recordWaits } from './waits.ts';

const dir = process.env.BENCH_WAITS_DIR;
if (dir !== undefined && dir !== '') {
  recordWaits();
  process.on('exit', () => {
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(recordedWaits()));
  });
}
