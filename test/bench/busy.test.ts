import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { besideBusyLoops } from '../../bench/busy.ts';
import { pollUntil, processRunning } from '../helpers/process.ts';

/** The other work a bench runs beside an aim that must hold on a busy machine: it runs, and never outlives its run. */

/** CPU time a process has used, in ms (/proc/<pid>/stat's utime and stime, in ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

describe('besideBusyLoops', () => {
  it('runs the given number of busy processes while the run lasts, and none after it', async () => {
    let seen: readonly number[] = [];
    const answer = await besideBusyLoops(2, async (pids) => {
      seen = pids;
      for (const pid of pids) expect(await processRunning(pid)).toBe(true);
      // Each keeps a core busy: a second of CPU each, however long a busy machine makes that take.
      for (const pid of pids) expect(await pollUntil(async () => (await cpuMs(pid)) >= 1000, 60_000)).toBe(true);
      return 'the run';
    });
    expect(answer).toBe('the run');
    expect(seen).toHaveLength(2);
    for (const pid of seen) expect(await processRunning(pid)).toBe(false);
  }, 90_000);

  it('stops them when the run fails, and passes the failure on', async () => {
    let seen: readonly number[] = [];
    await expect(
      besideBusyLoops(1, async (pids) => {
        seen = pids;
        throw new Error('the run failed');
      }),
    ).rejects.toThrow('the run failed');
    expect(seen).toHaveLength(1);
    for (const pid of seen) expect(await processRunning(pid)).toBe(false);
  });

  it('leaves no loop behind a bench killed outright', async () => {
    // A process that starts one loop, says its pid, and is then killed without a chance to stop it.
    const busy = fileURLToPath(new URL('../../bench/busy.ts', import.meta.url));
    const parent = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { besideBusyLoops } = await import(${JSON.stringify(busy)});
        await besideBusyLoops(1, ([pid]) => { process.stdout.write(pid + '\\n'); return new Promise(() => setInterval(() => {}, 60_000)); });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(parent.stdout, 'data')) as [Buffer];
    const pid = Number(line.toString().trim());
    expect(await processRunning(pid)).toBe(true);
    const exited = once(parent, 'exit');
    parent.kill('SIGKILL');
    await exited;
    expect(await pollUntil(async () => !(await processRunning(pid)), 20_000)).toBe(true);
  }, 30_000);
});
