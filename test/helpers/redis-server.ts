/**
 * Debian's `redis-server` on a loopback port (a free one, or `port`), keeping nothing on disk,
 * with a password when one is given (then in its URL):
 * the Redis of the rate-limit tests and of `BENCH_SCALE_REDIS=1 npm run bench:scale`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './free-port.ts';

export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export async function startRedisServer(options: { port?: number; password?: string } = {}): Promise<RedisServer> {
  const on = options.port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(on), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    child.on('error', (error) =>
      reject(new Error(`redis-server could not start (apt-get install -y redis-server): ${error.message}`)),
    );
    child.on('exit', (code) => reject(new Error(`redis-server exited (code ${String(code)}): ${output}`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  return {
    url: `redis://${options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`}127.0.0.1:${on}`,
    port: on,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
