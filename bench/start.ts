/**
 * `npm run bench:start`: how long a later start takes (`switchboard serve` on a DATA_DIR that
 * a first start set up, as after a restart or a deployment) until `/readyz` answers 200.
 *
 * Makes sure the service's bundle is current (bin/server-bundle.js) so no start builds it,
 * starts the service once on a new DATA_DIR (initdb, migrations, the first owner) and stops it.
 * Then, BENCH_START_RUNS times (default 5), alternating:
 *   (a) the service: `node bin/switchboard.js serve` on that DATA_DIR, from the spawn until
 *       `GET /readyz` answers 200 (asked every 10 ms), then SIGTERM, which must end it with 0;
 *   (b) the floor, the two things every start must do whatever the service: Node starting a
 *       bare HTTP server until it answers, and the embedded PostgreSQL starting on the same
 *       DATA_DIR until it takes connections (timed in this process, then stopped).
 * Prints the p50 and the slowest of each, the service beside the floor's sum, and the aim
 * (under 2 s). A missed aim is reported, not an error; a start that fails is.
 * Also, in each run: how long the first stack trace through the bundle takes in a new process
 * (the whole source map is parsed then, blocking the process at its first error logged), beside
 * the first stack trace through a module without a source map.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { serverBundle } from '../bin/server-bundle.js';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { freePort } from '../test/helpers/free-port.ts';
import { benchSteps, runBench } from './harness.ts';
import { met, percentile, positiveIntFromEnv, table } from './report.ts';
import { BenchError, stopServer } from './server.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const AIM_MS = 2_000;
const READY_TIMEOUT_MS = 60_000;

const steps = benchSteps();

interface Settings {
  runs: number;
}

/** Spawns `args` with `env` and times it until `url` answers 200; then stops it (exit code 0 expected). */
async function timeUntilReady(args: string[], env: Record<string, string>, url: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  try {
    for (;;) {
      if (child.exitCode !== null) {
        throw new BenchError(`${args.join(' ')} exited with ${child.exitCode} before it was ready\n${stderr}`);
      }
      if (performance.now() - started > READY_TIMEOUT_MS) {
        throw new BenchError(`${args.join(' ')} was not ready within ${READY_TIMEOUT_MS / 1000} s\n${stderr}`);
      }
      const ok = await fetch(url).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) return performance.now() - started;
      await steps.sleep(10);
    }
  } finally {
    await stopServer(child);
  }
}

async function laterStart(dataDir: string): Promise<number> {
  const port = await freePort();
  return timeUntilReady(
    [path.join(ROOT, 'bin', 'switchboard.js'), 'serve'],
    { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    `http://127.0.0.1:${port}/readyz`,
  );
}

async function bareNode(): Promise<number> {
  const port = await freePort();
  const server = `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1'); process.on('SIGTERM', () => process.exit(0));`;
  return timeUntilReady(['-e', server], {}, `http://127.0.0.1:${port}/readyz`);
}

async function postgresAlone(dataDir: string): Promise<number> {
  const started = performance.now();
  const database = await startEmbeddedPostgres(dataDir);
  const elapsed = performance.now() - started;
  await database.release();
  return elapsed;
}

/**
 * The first stack trace a process formats through a module that carries `map` as its source map,
 * with source maps on as bin/start.js runs the bundle: Node.js parses the whole map then, on the
 * main thread. Without `map`, the same through a module with none: the floor. Each in a new Node
 * process; ms.
 */
async function firstStackTrace(dir: string, map: string | undefined): Promise<number> {
  const module = path.join(dir, map === undefined ? 'without-map.mjs' : 'with-map.mjs');
  await fs.writeFile(
    module,
    // Node.js takes a source map's URL relative to its module (an absolute file URL it ignores).
    `export const made = () => new Error('the first');\n${map === undefined ? '' : `//# sourceMappingURL=${path.relative(dir, map)}\n`}`,
  );
  const url = JSON.stringify(pathToFileURL(module).href);
  const script = `import { findSourceMap } from 'node:module';
process.setSourceMapsEnabled(true);
const { made } = await import(${url});
const error = made();
const started = performance.now();
if (!error.stack.includes('the first')) throw new Error('no stack');
const ms = performance.now() - started;
if ((findSourceMap(${url}) !== undefined) !== ${map !== undefined}) throw new Error('the source map was not as meant');
process.stdout.write(String(ms));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
  const ms = Number(stdout);
  if (!Number.isFinite(ms)) throw new BenchError(`the first stack trace: no time in ${JSON.stringify(stdout)}`);
  return ms;
}

function summary(values: number[]): { p50: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), max: sorted.at(-1) ?? Number.NaN };
}

async function measure({
  settings: s,
  dataDir,
  startService,
}: Parameters<Parameters<typeof runBench<Settings>>[0]['measure']>[0]): Promise<string> {
  const bundle = await serverBundle();
  steps.progress(`the service's bundle: ${bundle.rebuilt ? 'built now' : 'current'}\n`);
  const firstStarted = performance.now();
  const first = await startService({ command: 'serve' });
  const firstMs = performance.now() - firstStarted;
  await stopServer(first.child);

  const service: number[] = [];
  const node: number[] = [];
  const postgres: number[] = [];
  const stackWithMap: number[] = [];
  const stackWithout: number[] = [];
  for (let run = 1; run <= s.runs; run += 1) {
    steps.checkInterrupted();
    steps.progress(`run ${run} of ${s.runs} ...\n`);
    service.push(await laterStart(dataDir));
    node.push(await bareNode());
    postgres.push(await postgresAlone(dataDir));
    stackWithMap.push(await firstStackTrace(dataDir, `${bundle.path}.map`));
    stackWithout.push(await firstStackTrace(dataDir, undefined));
  }
  const floor = node.map((n, i) => n + (postgres[i] ?? Number.NaN));
  const ms = (n: number) => n.toFixed(0);
  const rows = [
    ['start', 'p50 ms', 'slowest ms'],
    ...(
      [
        ['(a) later start of the service, until /readyz', service],
        ['(b) floor: Node until a bare server answers', node],
        ['    + the embedded PostgreSQL until it takes connections', postgres],
        ['    = the floor', floor],
        ["the first stack trace through the bundle (Node parses the bundle's source map then)", stackWithMap],
        ['    floor: the first stack trace through a module without a source map', stackWithout],
      ] as const
    ).map(([label, values]) => {
      const { p50, max } = summary([...values]);
      return [label, ms(p50), ms(max)];
    }),
  ];
  const p50 = summary(service).p50;
  const floorP50 = summary(floor).p50;
  return [
    `\nStarts (${s.runs} of each, alternating; the first start, with initdb and migrations: ${ms(firstMs)} ms until the banner)\n`,
    table(rows, [false, true, true]),
    '',
    table(
      [
        ['aim', 'measured', ''],
        [
          `(a) p50 under ${AIM_MS} ms`,
          `${ms(p50)} ms (${(p50 / floorP50).toFixed(2)} × the floor, ${ms(p50 - floorP50)} ms above it)`,
          met(p50 < AIM_MS),
        ],
      ],
      [false, false, false],
    ),
    '',
  ].join('\n');
}

process.exitCode = await runBench<Settings>({
  name: 'start',
  settings: () => ({ runs: positiveIntFromEnv('BENCH_START_RUNS', 5) }),
  interrupt: steps.interrupt,
  measure,
});
