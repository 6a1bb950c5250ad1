import type { Task, TaskList } from 'graphile-worker';
import type { Logger } from 'pino';
import { Compile } from 'typebox/compile';
import type { FileStoreSettings } from './config.ts';
import type { Db } from './db/connection.ts';
import { deleteExpiredIdempotencyKeys } from './http/idempotency.ts';
import { deleteEndedRateLimitWindows } from './http/rate-limit-store.ts';
import { runJob } from './jobs/job-run.ts';
import { priorityOf, TASKS, type TaskName, type TaskPayloads } from './jobs/queue.ts';
import { madeOnce } from './made-once.ts';
import type { SendMail } from './mail.ts';
import {
  refreshDueTokens,
  scheduleNoticeSubscriptions,
  subscribeCommentNotices,
  type TokenRefreshDeps,
} from './modules/accounts/index.ts';
import { deleteEndedSessions } from './modules/api-keys/index.ts';
import { deleteOldAuditEntries } from './modules/audit/index.ts';
import { ingestNotices, pollComments, scheduleCommentPolls, sendPendingReply } from './modules/comments/index.ts';
import { deleteOldConnectLinks } from './modules/connect/index.ts';
import { fillInsightHistory, refreshInsights, scheduleInsightRefreshes } from './modules/insights/index.ts';
import {
  deleteEndedMemberSessions,
  deleteExpiredLinks,
  sendMemberEmail,
  sendSignInLinks,
} from './modules/members/index.ts';
import { describePlatformPost, type PublishDeps, publishTarget } from './modules/posts/index.ts';
import { completeProfileDeletion } from './modules/profiles/index.ts';
import { scheduleReportSends, sendReport } from './modules/reports/index.ts';
import {
  attemptDeliveries,
  type DeliveryDeps,
  deleteOldDeliveries,
  notifyEndpointDisabled,
} from './modules/webhooks/index.ts';
import { isPlatform } from './platforms/index.ts';

/** What the tasks need: the database, and what deliveries, notices, refreshes and deletions use. */
export interface TaskDeps extends DeliveryDeps, TokenRefreshDeps, PublishDeps {
  db: Db;
  /** Where files (media) are kept. */
  files: FileStoreSettings;
  sendMail: SendMail;
  log: Logger;
  /** COMMENT_POLL_INTERVAL_SECONDS, in ms. */
  commentPollIntervalMs: number;
  /** AUDIT_LOG_RETENTION_DAYS, in ms. */
  auditLogRetentionMs: number;
  /** PUBLIC_URL: where e-mailed links lead. */
  publicUrl: string | undefined;
}

function task<T extends TaskName>(name: T, run: (payload: TaskPayloads[T]) => Promise<unknown>): Task {
  // Compiled at the task's first job: checking against the schema as data cost a job tens of µs.
  const validator = madeOnce(() => Compile(TASKS[name].payload));
  return async (payload, helpers) => {
    if (!validator().Check(payload)) {
      // A malformed job would fail the same way on every retry; drop it and say where it is wrong,
      // not what it holds (a payload may carry other people's text or an address).
      const wrong = [...validator().Errors(payload)]
        .slice(0, 5)
        .map((error) => `${error.instancePath || '/'}: ${error.message}`);
      helpers.logger.error(`dropping ${name} job ${helpers.job.id}: malformed payload (${wrong.join('; ')})`);
      return;
    }
    await runJob(
      helpers.job,
      async () => {
        await run(payload as TaskPayloads[T]);
      },
      helpers.query,
    );
  };
}

/** The periodic tasks, in graphile-worker's crontab format, from their schedules and priorities in queue.ts. */
export const CRONTAB = Object.entries(TASKS)
  .flatMap(([name, spec]) =>
    'schedule' in spec ? [`${spec.schedule} ${name} ?priority=${priorityOf(name as TaskName)}`] : [],
  )
  .join('\n');

/** Each task only unpacks its payload and calls a module's service. */
export function taskList(deps: TaskDeps): TaskList {
  const { db } = deps;
  // The comments and posts services take the adapters as routes do: through a getter.
  const withGetter = { ...deps, platforms: () => deps.platforms };
  const tasks: { [T in TaskName]: Task } = {
    delete_profile: task('delete_profile', ({ profile_id }) => completeProfileDeletion(deps, profile_id)),
    deliver_webhooks: task('deliver_webhooks', ({ delivery_ids, attempts_made }) =>
      attemptDeliveries(deps, delivery_ids, attempts_made),
    ),
    notify_webhook_disabled: task('notify_webhook_disabled', ({ endpoint_id, last_error }) =>
      notifyEndpointDisabled(deps, endpoint_id, last_error),
    ),
    publish_target: task('publish_target', ({ target_id, started }) =>
      publishTarget(deps, target_id, started === true),
    ),
    ingest_comment_notices: task('ingest_comment_notices', ({ platform, comments, attempt }) =>
      isPlatform(platform) ? ingestNotices(withGetter, platform, comments, attempt) : Promise.resolve(),
    ),
    poll_comments: task('poll_comments', ({ account_id }) => pollComments(withGetter, account_id)),
    subscribe_comment_notices: task('subscribe_comment_notices', ({ account_id }) =>
      subscribeCommentNotices(deps, account_id),
    ),
    schedule_notice_subscriptions: task('schedule_notice_subscriptions', () => scheduleNoticeSubscriptions(deps)),
    schedule_comment_polls: task('schedule_comment_polls', () => scheduleCommentPolls(deps)),
    schedule_insight_refreshes: task('schedule_insight_refreshes', () => scheduleInsightRefreshes(deps)),
    refresh_insights: task('refresh_insights', ({ account_id }) => refreshInsights(withGetter, account_id)),
    fill_insight_history: task('fill_insight_history', ({ account_id }) => fillInsightHistory(withGetter, account_id)),
    send_comment_reply: task('send_comment_reply', ({ reply_id }) => sendPendingReply(withGetter, reply_id)),
    describe_platform_post: task('describe_platform_post', ({ post_id }) => describePlatformPost(withGetter, post_id)),
    delete_expired_idempotency_keys: task('delete_expired_idempotency_keys', () => deleteExpiredIdempotencyKeys(db)),
    delete_old_webhook_deliveries: task('delete_old_webhook_deliveries', () => deleteOldDeliveries(db)),
    refresh_platform_tokens: task('refresh_platform_tokens', () => refreshDueTokens(deps)),
    delete_old_connect_links: task('delete_old_connect_links', () => deleteOldConnectLinks(db)),
    delete_ended_sessions: task('delete_ended_sessions', async () => {
      await deleteEndedSessions(db);
      await deleteEndedMemberSessions(db);
      await deleteExpiredLinks(db);
    }),
    send_report: task('send_report', ({ send_id }) => sendReport(withGetter, send_id)),
    schedule_report_sends: task('schedule_report_sends', () => scheduleReportSends(deps)),
    send_member_email: task('send_member_email', (payload) => sendMemberEmail(deps, payload)),
    send_sign_in_links: task('send_sign_in_links', (payload) => sendSignInLinks(deps, payload)),
    delete_old_audit_entries: task('delete_old_audit_entries', () =>
      deleteOldAuditEntries(db, deps.auditLogRetentionMs),
    ),
    delete_ended_rate_limit_windows: task('delete_ended_rate_limit_windows', () => deleteEndedRateLimitWindows(db)),
  };
  return tasks;
}
