import type { Runner } from 'graphile-worker';

export interface Supervision {
  /** Says the runners are being stopped on purpose: their end is no failure then. */
  stopping(): void;
}

/**
 * Watches graphile-worker runners. A runner can stop by itself (its pool shuts down after an
 * error it deems fatal) while the process lives on, taking no job again: every job would wait
 * for a process that looks alive. So the first runner that ends unasked is reported, once, for
 * the process to stop and its supervisor to start it again.
 */
export function superviseRunners(runners: readonly Runner[], onStopped: (error: Error) => void): Supervision {
  let stopping = false;
  let reported = false;
  const report = (error: Error) => {
    if (stopping || reported) return;
    reported = true;
    onStopped(error);
  };
  for (const runner of runners) {
    runner.promise.then(
      () => report(new Error('a job pool stopped by itself')),
      (cause: unknown) =>
        report(
          new Error(`a job pool stopped by itself: ${cause instanceof Error ? cause.message : String(cause)}`, {
            cause,
          }),
        ),
    );
  }
  return {
    stopping: () => {
      stopping = true;
    },
  };
}
