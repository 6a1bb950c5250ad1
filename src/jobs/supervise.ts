import type { Runner, WorkerEvents } from 'graphile-worker';

export interface Supervision {
  /** Says the runners are being stopped on purpose: their end is no failure then. */
  stopping(): void;
}

/**
 * Watches graphile-worker runners. A runner can stop by itself (its pool shuts down after an
 * error it deems fatal) while the process lives on, taking no job again: every job would wait
 * for a process that looks alive. So the first runner that ends unasked is reported, once, for
 * the process to stop and its supervisor to start it again. A runner's promise says nothing of
 * why (graphile-worker 0.18 settles it the same either way): the cause is the message of the
 * last pool shutdown, from the `events` given to run().
 */
export function superviseRunners(
  runners: readonly Runner[],
  events: WorkerEvents,
  onStopped: (error: Error) => void,
): Supervision {
  let stopping = false;
  let reported = false;
  let cause: string | undefined;
  events.on('pool:gracefulShutdown', ({ message }) => {
    cause = message;
  });
  const report = () => {
    if (stopping || reported) return;
    reported = true;
    onStopped(new Error(`a job pool stopped by itself: ${cause ?? 'no cause given'}`));
  };
  for (const runner of runners) runner.promise.then(report, report);
  return {
    stopping: () => {
      stopping = true;
    },
  };
}
