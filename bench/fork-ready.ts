import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { BenchError } from './server.ts';

const START_TIMEOUT_MS = 30_000;

/**
 * Forks `entry` under Node's own type stripping (no tsx loader in that process) with an IPC
 * channel, and waits for its `{type: 'ready', port}` message. A child that exits first, or is
 * not ready in time, is killed and named in the error.
 */
export async function forkUntilReady(
  entry: string,
  args: string[],
  name: string,
): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(entry, args, { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let timer: NodeJS.Timeout | undefined;
  try {
    const port = await Promise.race([
      new Promise<number>((resolve) => {
        child.on('message', (message: { type?: unknown; port?: unknown }) => {
          if (message.type === 'ready' && typeof message.port === 'number') resolve(message.port);
        });
      }),
      once(child, 'exit').then(([code]: unknown[]) => {
        throw new BenchError(`${name} exited at its start (code ${String(code)})`);
      }),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new BenchError(`${name} did not start`)), START_TIMEOUT_MS);
      }),
    ]);
    return { child, port };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
