import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchError } from './server.ts';

/** The parent's side of bench/bytes-server-process.ts: a bare server answering fixed bytes. */

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bytes-server-process.ts');
const START_TIMEOUT_MS = 30_000;

export interface BytesServer {
  child: ChildProcess;
  pid: number;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  stop(): Promise<void>;
}

/** Starts a process that answers every request with `body`. */
export async function startBytesServer(body: string): Promise<BytesServer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-bytes-'));
  const file = path.join(dir, 'answer.json');
  await fs.writeFile(file, body);
  const child = fork(ENTRY, [file], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await fs.rm(dir, { recursive: true, force: true });
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    const port = await Promise.race([
      new Promise<number>((resolve) => {
        child.on('message', (message: { type: string; port: number }) => {
          if (message.type === 'ready') resolve(message.port);
        });
      }),
      new Promise<never>((_, reject) => {
        child.once('exit', (code) => reject(new BenchError(`the bytes server exited (${code}) before listening`)));
        timer = setTimeout(() => reject(new BenchError('the bytes server did not start in time')), START_TIMEOUT_MS);
      }),
    ]);
    return { child, pid: child.pid ?? 0, origin: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
