import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe } from './report.ts';
import { BenchError, type Server, startServer, stopLeftoverPostgres, stopServer } from './server.ts';

/** What a bench's measurement gets from the harness. */
export interface BenchContext<S> {
  settings: S;
  /** A fresh temporary DATA_DIR, removed at the end. */
  dataDir: string;
  /** Adds a clean-up step; steps run at the end, whatever happened, the last added first. */
  atEnd(step: () => Promise<void>): void;
  /** Starts the service on dataDir (bench/server.ts), to be stopped at the end. */
  startService(options: Parameters<typeof startServer>[1]): Promise<Server>;
}

/**
 * What every bench's main() does around its measurement: reads its settings (exit code 2 when
 * they are wrong), makes a temporary DATA_DIR, turns SIGINT/SIGTERM into `interrupt()`, runs the
 * measurement, then runs the clean-up steps and removes DATA_DIR whatever happened, prints the
 * report, and answers the exit code: 1 when the measurement or a clean-up step failed.
 */
export async function runBench<S>(options: {
  name: string;
  settings: () => S;
  interrupt: () => void;
  measure: (context: BenchContext<S>) => Promise<string>;
}): Promise<number> {
  let settings: S;
  try {
    settings = options.settings();
  } catch (error) {
    process.stderr.write(`bench: ${describe(error)}\n`);
    return 2;
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `switchboard-bench-${options.name}-`));
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`\n${signal}: stopping\n`);
    options.interrupt();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const steps: (() => Promise<void>)[] = [];
  const context: BenchContext<S> = {
    settings,
    dataDir,
    atEnd: (step) => steps.push(step),
    startService: async (serverOptions) => {
      const server = await startServer(dataDir, serverOptions);
      // Should the bench die without its clean-up (an exception, a closed pipe), the server (in
      // a process group of its own) still stops, and stops its PostgreSQL.
      const killOnExit = () => {
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
      };
      process.on('exit', killOnExit);
      steps.push(async () => {
        if (server.child.exitCode === null && server.child.signalCode === null) {
          process.stderr.write('stopping the server ...\n');
        }
        try {
          await stopServer(server.child);
        } catch (error) {
          await stopLeftoverPostgres(dataDir);
          throw error;
        } finally {
          process.off('exit', killOnExit);
        }
      });
      return server;
    },
  };

  let failure: unknown;
  let output = '';
  try {
    output = await options.measure(context);
  } catch (error) {
    failure = error;
    process.stderr.write('\n'); // ends a progress line the failure cut short
  }
  for (const step of steps.reverse()) {
    await step().catch((error: unknown) => {
      failure ??= error;
    });
  }
  await fs.rm(dataDir, { recursive: true, force: true }).catch((error: unknown) => {
    failure ??= error;
  });

  if (output) process.stdout.write(output);
  if (failure !== undefined) {
    process.stderr.write(`\nbench FAILED: ${describe(failure)}\n`);
    return 1;
  }
  return 0;
}

/**
 * A bench's Ctrl-C flag and the small helpers every bench uses around it: `interrupt()` from
 * runBench's interrupt callback, `checkInterrupted()` between steps of long waits.
 */
export function benchSteps() {
  let interrupted = false;
  return {
    interrupt: () => {
      interrupted = true;
    },
    isInterrupted: () => interrupted,
    checkInterrupted: () => {
      if (interrupted) throw new BenchError('interrupted');
    },
    sleep: (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
    progress: (text: string) => process.stderr.write(text),
  };
}
