import type { Task, TaskList } from 'graphile-worker';
import { Value } from 'typebox/value';
import type { Db } from '../db/connection.ts';
import { deleteExpiredIdempotencyKeys } from '../http/idempotency.ts';
import type { SendMail } from '../mail.ts';
import { refreshDueTokens, type TokenRefreshDeps } from '../modules/accounts/token-refresh.ts';
import { deleteOldConnectLinks } from '../modules/connect/service.ts';
import { deleteProfileData } from '../modules/profiles/service.ts';
import { attemptDeliveries, attemptDelivery, type DeliveryDeps } from '../modules/webhooks/attempts.ts';
import { deleteOldDeliveries } from '../modules/webhooks/deliveries.ts';
import { notifyEndpointDisabled } from '../modules/webhooks/notices.ts';
import { TASK_PAYLOADS, type TaskName, type TaskPayloads } from './queue.ts';

/** What the tasks need: the database, and what deliveries and notices use. */
export interface TaskDeps extends DeliveryDeps, TokenRefreshDeps {
  db: Db;
  sendMail: SendMail;
}

function task<T extends TaskName>(name: T, run: (payload: TaskPayloads[T]) => Promise<unknown>): Task {
  return async (payload, helpers) => {
    if (!Value.Check(TASK_PAYLOADS[name], payload)) {
      // A malformed job would fail the same way on every retry; drop it and say so.
      helpers.logger.error(`dropping ${name} job ${helpers.job.id}: malformed payload ${JSON.stringify(payload)}`);
      return;
    }
    await run(payload as TaskPayloads[T]);
  };
}

/** Periodic tasks, in graphile-worker's crontab format. */
export const CRONTAB = [
  '23 * * * * delete_expired_idempotency_keys',
  '41 * * * * delete_old_webhook_deliveries',
  '53 * * * * delete_old_connect_links',
  // Every minute: a failed refresh is retried after 30 s at the soonest, and tokens are due
  // at the latest 15 minutes before they expire.
  '* * * * * refresh_platform_tokens',
].join('\n');

/** Each task only unpacks its payload and calls a module's service. */
export function taskList(deps: TaskDeps): TaskList {
  const { db } = deps;
  return {
    delete_profile: task('delete_profile', ({ profile_id }) => deleteProfileData(db, profile_id)),
    deliver_webhooks: task('deliver_webhooks', ({ delivery_ids, attempts_made }) =>
      attemptDeliveries(deps, delivery_ids, attempts_made),
    ),
    deliver_webhook: task('deliver_webhook', ({ delivery_id }) => attemptDelivery(deps, delivery_id)),
    notify_webhook_disabled: task('notify_webhook_disabled', ({ endpoint_id, last_error }) =>
      notifyEndpointDisabled(deps, endpoint_id, last_error),
    ),
    delete_expired_idempotency_keys: task('delete_expired_idempotency_keys', () => deleteExpiredIdempotencyKeys(db)),
    delete_old_webhook_deliveries: task('delete_old_webhook_deliveries', () => deleteOldDeliveries(db)),
    refresh_platform_tokens: task('refresh_platform_tokens', () => refreshDueTokens(deps)),
    delete_old_connect_links: task('delete_old_connect_links', () => deleteOldConnectLinks(db)),
  };
}
