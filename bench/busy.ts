/**
 * Other work beside a run: processes that each keep a core busy, as another program on the same
 * machine would, for an aim that must hold while the machine is also busy with other work.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * A loop that never yields, so it cannot hear a signal or a closed pipe from its parent: it asks
 * every few million turns whether its parent is still the bench that started it (its pid given as
 * the argument: a bench killed before the loop began would otherwise be no parent to miss), and
 * ends when not, so a bench killed outright leaves no core spinning behind it.
 */
const LOOP = `const bench = Number(process.argv[1]); for (let i = 1; ; i++) if ((i & 0x3fffff) === 0 && process.ppid !== bench) process.exit(0);`;

/** Runs `run` while `loops` processes each keep a core busy; they end when it ends, however it ends. */
export async function besideBusyLoops<T>(loops: number, run: (pids: readonly number[]) => Promise<T>): Promise<T> {
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < loops; i++) {
      const child = spawn(process.execPath, ['-e', LOOP, String(process.pid)], { stdio: 'ignore' });
      children.push(child);
      await once(child, 'spawn');
    }
    return await run(children.map((c) => c.pid as number));
  } finally {
    await Promise.all(children.map(stop));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  // Never started (its spawn failed), or already gone.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
