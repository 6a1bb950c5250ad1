import { type SQL, sql } from 'drizzle-orm';
import { type Static, type TObject, Type } from 'typebox';
import { now } from '../clock.ts';
import type { Tx } from '../db/connection.ts';
import { executeSqlShaped } from '../db/prepared.ts';
import { plainName } from '../db/with-effects.ts';

/**
 * Every background task: the schema of its payload and, for periodic ones, its schedule. The
 * worker checks payloads against these before running a task (src/tasks.ts runs each one),
 * and jobs are added only through `enqueue`, `jobSql` or `unkeyedJobsSql` below, typed by these payloads.
 */

/** A delivery id: a UUID (anything else would fail the job's query on every retry). */
const DeliveryId = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});

/** One of the service's own row ids (an account's, a target's, a post's, a reply's). */
const RowId = Type.String({ minLength: 1, maxLength: 100 });
/** The payload of a job about one account. */
const OneAccount = Type.Object({ account_id: RowId });

/** As the route checks them (comments/platform-webhooks.ts): printable ASCII, no spaces. */
const PlatformId = Type.String({ pattern: '^[\\x21-\\x7e]{1,200}$' });
const MaybeText = Type.Union([Type.String(), Type.Null()]);

/** One comment a platform webhook reported (src/modules/comments/intake.ts). */
const NoticeComment = Type.Object({
  account_platform_user_id: PlatformId,
  id: PlatformId,
  post_id: PlatformId,
  parent_id: Type.Union([PlatformId, Type.Null()]),
  author_id: MaybeText,
  author_username: MaybeText,
  text: Type.String(),
  /** The comment's own time, null when the notice carries none (Instagram's). */
  commented_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** When the platform sent the notice, else when it arrived. */
  noticed_at: Type.String({ format: 'date-time' }),
  hidden: Type.Boolean(),
  by_account: Type.Boolean(),
  /** The notice named the comment only: it is read whole from the platform before it is stored. */
  named: Type.Optional(Type.Boolean()),
});

/**
 * How soon a due job runs beside others due at the same time: a worker takes due jobs by
 * graphile-worker's `priority` (lowest number first), then by due time. What a user waits on
 * by the clock (a post due now, a webhook, a comment notice, a reply) is time-critical; keeping
 * the service in shape (schedules, token refreshes, clean-up) is routine; reading what can be
 * read later (insights, a poll of comments, a post's details) is bulk, and runs on slots of its
 * own (src/worker.ts), so a backlog of it (the insights history of many accounts just
 * connected) never holds a slot a post needs.
 */
export const PRIORITIES = { 'time-critical': 0, routine: 10, bulk: 20 } as const;
export type Priority = keyof typeof PRIORITIES;

interface TaskSpec {
  payload: TObject;
  priority: Priority;
  /** graphile-worker crontab schedule (minute hour day month weekday) of a periodic task. */
  schedule?: string;
}

export const TASKS = {
  delete_profile: { priority: 'routine', payload: Type.Object({ profile_id: Type.String() }) },
  // Attempts these deliveries, each of which has had `attempts_made` attempts so far: up to 50
  // of one change's events at once (the fan-out), or one (a retry, a resend, a test).
  deliver_webhooks: {
    priority: 'time-critical',
    payload: Type.Object({
      delivery_ids: Type.Array(DeliveryId, { minItems: 1, maxItems: 100 }),
      attempts_made: Type.Integer({ minimum: 0 }),
    }),
  },
  // The next step of publishing one post target (src/modules/posts/publishing/); one job per
  // target at a time (job key `publish_target:<id>`), moved to each later step's time (jobs/job-run.ts).
  publish_target: {
    priority: 'time-critical',
    payload: Type.Object({
      target_id: RowId,
      /**
       * The run that queued this one found the target started: a hint, so that the next run
       * reads it without the parts that may start it, whichever worker takes it. A target
       * retried since is started as one the read did not start.
       */
      started: Type.Optional(Type.Boolean()),
    }),
  },
  // Comments a platform webhook reported, verified by the route that took the notice.
  ingest_comment_notices: {
    priority: 'time-critical',
    payload: Type.Object({
      platform: Type.String({ minLength: 1, maxLength: 20 }),
      comments: Type.Array(NoticeComment, { minItems: 1, maxItems: 100 }),
      /** Tries so far of reading the times of comments the notice gave none of. */
      attempt: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    }),
  },
  // Subscribes one account to its platform's comment notices (job key `subscribe_comment_notices:<account id>`).
  subscribe_comment_notices: {
    priority: 'routine',
    payload: OneAccount,
  },
  // Every minute: queues the subscriptions to comment notices that are pending and due (accounts module).
  schedule_notice_subscriptions: { priority: 'routine', payload: Type.Object({}), schedule: '* * * * *' },
  // Reads one account's recent comments (job key `poll_comments:<account id>`).
  poll_comments: {
    priority: 'bulk',
    payload: OneAccount,
  },
  // Publishes a reply the platform was still processing (Threads), once it is done.
  send_comment_reply: {
    priority: 'time-critical',
    payload: Type.Object({ reply_id: RowId }),
  },
  // Reads a platform post's text, permalink and time, for a post first seen through a comment notice.
  describe_platform_post: {
    priority: 'bulk',
    payload: Type.Object({ post_id: RowId }),
  },
  // The e-mail of a member's invitation or sign-in link; the link's token sealed under SECRET_KEY.
  send_member_email: {
    priority: 'time-critical',
    payload: Type.Object({ member_id: RowId, token_id: RowId, token: Type.String({ minLength: 1, maxLength: 500 }) }),
  },
  // The sign-in links an address asked for: looked up and sent here, so the request answers as fast for any address.
  send_sign_in_links: {
    priority: 'time-critical',
    payload: Type.Object({
      // The address lower-cased, which may lengthen one a little past the 320 characters it had.
      email: Type.String({ minLength: 1, maxLength: 1000 }),
      asked_at: Type.String({ format: 'date-time' }),
    }),
  },
  // One try of a report e-mail (job key `send_report:<send id>`, moved to each later try's time):
  // bulk, as it makes a PDF and is due on its day rather than its minute.
  send_report: {
    priority: 'bulk',
    payload: Type.Object({ send_id: RowId }),
  },
  // Every minute: makes the report e-mails whose schedules are due (reports module).
  schedule_report_sends: { priority: 'routine', payload: Type.Object({}), schedule: '* * * * *' },
  notify_webhook_disabled: {
    priority: 'time-critical',
    payload: Type.Object({ endpoint_id: Type.String(), last_error: Type.String() }),
  },
  // Periodic: graphile-worker's cron adds them (with a `_cron` field in the payload).
  delete_expired_idempotency_keys: { priority: 'routine', payload: Type.Object({}), schedule: '23 * * * *' },
  delete_old_webhook_deliveries: { priority: 'routine', payload: Type.Object({}), schedule: '41 * * * *' },
  delete_old_connect_links: { priority: 'routine', payload: Type.Object({}), schedule: '53 * * * *' },
  // Every hour: dashboard sessions (keys' and members') past their limits, and members' links past their time.
  delete_ended_sessions: { priority: 'routine', payload: Type.Object({}), schedule: '7 * * * *' },
  // Every hour: deletes audit entries past AUDIT_LOG_RETENTION_DAYS, in bounded batches.
  delete_old_audit_entries: { priority: 'routine', payload: Type.Object({}), schedule: '31 * * * *' },
  // Every 5 minutes: forgets the rate limit's ended windows.
  delete_ended_rate_limit_windows: { priority: 'routine', payload: Type.Object({}), schedule: '*/5 * * * *' },
  // Every minute: a failed refresh is retried after 30 s at the soonest, and tokens are due
  // at the latest 15 minutes before they expire.
  refresh_platform_tokens: { priority: 'routine', payload: Type.Object({}), schedule: '* * * * *' },
  // Every minute: queues the comment polls that are due (each account has its own phase).
  schedule_comment_polls: { priority: 'routine', payload: Type.Object({}), schedule: '* * * * *' },
  // Queues the insights refreshes and history readings that are due (insights module).
  schedule_insight_refreshes: { priority: 'routine', payload: Type.Object({}), schedule: '* * * * *' },
  // Reads one account's last 3 days and recent posts' figures (job key `refresh_insights:<account id>`).
  refresh_insights: {
    priority: 'bulk',
    payload: OneAccount,
  },
  // Reads one account's past figures, a few 30-day steps a job (job key `fill_insight_history:<account id>`).
  fill_insight_history: {
    priority: 'bulk',
    payload: OneAccount,
  },
} satisfies Record<string, TaskSpec>;

export type TaskName = keyof typeof TASKS;

/** The task's graphile-worker priority (its jobs and, for a periodic task, its crontab line). */
export function priorityOf(task: TaskName): number {
  return PRIORITIES[TASKS[task].priority];
}
export type TaskPayloads = { [T in TaskName]: Static<(typeof TASKS)[T]['payload']> };

export interface JobOptions {
  jobKey?: string;
  /** When, on the service's clock (src/clock.ts); in the past or absent: now. */
  runAt?: Date;
  maxAttempts?: number;
}

/** graphile-worker's default: enough retries (with its exponential backoff) to ride out days of trouble. */
const DEFAULT_MAX_ATTEMPTS = 25;

/**
 * Adds a job in the caller's transaction, so the job exists exactly when the change that
 * needs it commits.
 */
export async function enqueue<T extends TaskName>(
  tx: Tx,
  task: T,
  payload: TaskPayloads[T],
  options: JobOptions = {},
): Promise<void> {
  // Built once for each of its two texts (due now, or after a wait), not at every job added.
  const later = options.runAt !== undefined;
  await executeSqlShaped(
    tx,
    later ? 'add_job, due later' : 'add_job, due now',
    () => sql`select graphile_worker.add_job(
      ${sql.placeholder('task')}::text,
      payload => ${sql.placeholder('payload')}::json,
      run_at => ${later ? dueAfterSql(sql`${sql.placeholder('wait_ms')}`) : sql`null`}::timestamptz,
      max_attempts => ${sql.placeholder('max_attempts')}::int,
      job_key => ${sql.placeholder('job_key')}::text,
      priority => ${sql.placeholder('priority')}::int
    )`,
    {
      task,
      payload: JSON.stringify(payload),
      ...(options.runAt !== undefined ? { wait_ms: waitMsUntil(options.runAt) } : {}),
      max_attempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      job_key: options.jobKey ?? null,
      priority: priorityOf(task),
    },
  );
}

/** The milliseconds from now (the service's clock) to `runAt`, none when it has passed: dueAfterSql's wait. */
export function waitMsUntil(runAt: Date): number {
  return Math.max(0, runAt.getTime() - now().getTime());
}

/**
 * The time on the database's clock `waitMs` (an SQL number, e.g. a placeholder) from now: a time
 * on the service's clock as the time on the database's that is as far ahead, the clock
 * graphile-worker compares `run_at` with. A skew between the two machines (or a test's moved
 * clock) then shifts nothing.
 */
export function dueAfterSql(waitMs: SQL): SQL {
  return sql`(now() + ${waitMs}::double precision * interval '1 millisecond')`;
}

/** A job's payload built by SQL from its fields' expressions (a field left out is not in it). */
function payloadSql<T extends TaskName>(payload: SqlPayload<T>): SQL {
  const fields = Object.entries(payload as Record<string, SQL | undefined>).flatMap(([name, value]) =>
    value === undefined ? [] : [sql`${name}::text, ${value}`],
  );
  return sql`json_build_object(${sql.join(fields, sql`, `)})`;
}

/** A payload whose every field given is an SQL expression, for jobs added inside a statement; optional fields may be left out. */
export type SqlPayload<T extends TaskName> = { [K in keyof TaskPayloads[T]]: SQL };

/**
 * The SQL expression that adds a job, for a statement that queues jobs for the rows it writes
 * (one round trip on the webhook hot path). Typed like `enqueue`: the task's payload fields,
 * each given as an SQL expression over the statement's rows.
 */
export function jobSql<T extends TaskName>(
  task: T,
  payload: SqlPayload<T>,
  /**
   * `runAt`: a time the statement computes (e.g. a row's next_attempt_at), taken as a time on
   * the database's clock, unlike `enqueue`'s, which is a wait on the service's clock.
   */
  options: { runAt?: SQL; jobKey?: SQL } = {},
): SQL {
  return sql`graphile_worker.add_job(
    ${task}::text,
    payload => ${payloadSql(payload)},
    run_at => ${options.runAt ?? sql`null`}::timestamptz,
    max_attempts => ${DEFAULT_MAX_ATTEMPTS}::int,
    job_key => ${options.jobKey ?? sql`null`}::text,
    priority => ${priorityOf(task)}::int
  )`;
}

/**
 * Jobs of `task` without a key, one for each row of the CTE `rows`, added by the statement that
 * writes those rows as add_job adds them (due now, 25 attempts, the task's priority, no queue),
 * as one insert: add_job's call a job, with its upserts of the task and queue and its search for
 * jobs to replace by key, cost PostgreSQL more than the insert itself (the webhook fan-out).
 * Returns the insert, a CTE named `name`, and two effects (db/with-effects.ts), all of which the
 * statement must carry: where its snapshot has no row of the task (before any worker has started
 * on this database), add_job adds each job instead, making that row; and the workers are woken as
 * add_jobs wakes them, once a statement with the count of its jobs (graphile-worker's
 * `jobs:insert`, with a random part: PostgreSQL folds a transaction's identical notices into one).
 * This leans on graphile-worker's job table and notice as of 0.18: test/jobs/unkeyed-jobs.test.ts
 * compares the jobs with add_job's.
 */
export function unkeyedJobsSql<T extends TaskName>(
  task: T,
  payload: SqlPayload<T>,
  rows: string,
  name: string,
): { with: [string, SQL]; effects: [string, SQL][] } {
  const from = plainName(rows);
  const inserted = plainName(name);
  return {
    with: [
      name,
      sql`insert into graphile_worker._private_jobs (task_id, payload, run_at, max_attempts, priority)
        select gw_task.id, job.payload, now(), ${DEFAULT_MAX_ATTEMPTS}::int, ${priorityOf(task)}::int
        from (select ${payloadSql(payload)} as payload from ${from}) as job
          join graphile_worker._private_tasks as gw_task on gw_task.identifier = ${task}::text
        returning id`,
    ],
    effects: [
      [
        `${name}_first`,
        sql`select ${jobSql(task, payload)} from ${from}
          where not exists (select 1 from graphile_worker._private_tasks where identifier = ${task}::text)`,
      ],
      [
        `${name}_wake`,
        sql`select pg_notify('jobs:insert', '{"r":' || random()::text || ',"count":' || count(*)::text || '}')
          from ${inserted} having count(*) > 0`,
      ],
    ],
  };
}
