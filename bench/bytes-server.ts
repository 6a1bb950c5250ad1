import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkUntilReady } from './fork-ready.ts';

/** The parent's side of bench/bytes-server-process.ts: a bare server answering fixed bytes. */

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bytes-server-process.ts');

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
  const stop = async (child?: ChildProcess) => {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await fs.rm(dir, { recursive: true, force: true });
  };
  let started: { child: ChildProcess; port: number };
  try {
    started = await forkUntilReady(ENTRY, [file], 'the bytes server');
  } catch (error) {
    await stop();
    throw error;
  }
  const { child, port } = started;
  return { child, pid: child.pid ?? 0, origin: `http://127.0.0.1:${port}`, stop: () => stop(child) };
}
