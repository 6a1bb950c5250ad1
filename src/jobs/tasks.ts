import type { Task, TaskList } from 'graphile-worker';
import type { Db } from '../db/connection.ts';
import { deleteExpiredIdempotencyKeys } from '../http/idempotency.ts';
import { deleteProfileData } from '../modules/profiles/service.ts';
import type { TaskName, TaskPayloads } from './queue.ts';

function isPayload<T extends TaskName>(task: T, payload: unknown): payload is TaskPayloads[T] {
  switch (task) {
    case 'delete_expired_idempotency_keys':
      return typeof payload === 'object' && payload !== null;
    case 'delete_profile':
      return (
        typeof payload === 'object' &&
        payload !== null &&
        typeof (payload as { profile_id?: unknown }).profile_id === 'string'
      );
    default:
      return false;
  }
}

function task<T extends TaskName>(name: T, run: (payload: TaskPayloads[T]) => Promise<void>): Task {
  return async (payload, helpers) => {
    if (!isPayload(name, payload)) {
      // A malformed job would fail the same way on every retry; drop it and say so.
      helpers.logger.error(`dropping ${name} job ${helpers.job.id}: malformed payload ${JSON.stringify(payload)}`);
      return;
    }
    await run(payload);
  };
}

/** Periodic tasks, in graphile-worker's crontab format. */
export const CRONTAB = ['23 * * * * delete_expired_idempotency_keys'].join('\n');

/** Each task only unpacks its payload and calls a module's service. */
export function taskList(db: Db): TaskList {
  return {
    delete_profile: task('delete_profile', async ({ profile_id }) => {
      await deleteProfileData(db, profile_id);
    }),
    delete_expired_idempotency_keys: task('delete_expired_idempotency_keys', async () => {
      await deleteExpiredIdempotencyKeys(db);
    }),
  };
}
