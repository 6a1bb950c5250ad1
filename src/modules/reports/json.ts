import { type Static, Type } from 'typebox';
import { At, Nullable } from '../../http/schemas.ts';
import { PLATFORMS } from '../../platforms/index.ts';
import type { Figure, FollowersFigure, HEADLINES, Headlines, ReportDay } from './figures.ts';
import { SEND_ATTEMPTS } from './schedules.ts';
import type { ProfileReport } from './service.ts';
import {
  REPORT_SEND_STATUSES,
  type ReportLink,
  type ReportSchedule,
  type ReportSend,
  SCHEDULE_FREQUENCIES,
} from './tables.ts';

const Day = (description: string) => Type.String({ format: 'date', description: `${description} YYYY-MM-DD, UTC.` });
const Value = (description: string) =>
  Nullable(Type.Number(), `${description} Null: no data (the platform reported none, or does not offer it).`);

const figureFields = {
  value: Value("The period's figure."),
  previous: Value("The previous period's."),
  change: Value('`value` less `previous`; null unless both are known.'),
  change_ratio: Value('`change` as a fraction of `previous` (0.25: 25% more); null also when `previous` is 0.'),
};

const FigureJson = (description: string) => Type.Object(figureFields, { additionalProperties: false, description });

const FollowersJson = Type.Object(
  {
    start: Value('The first follower count known in the period.'),
    ...figureFields,
  },
  {
    additionalProperties: false,
    description:
      'Followers, a count rather than a flow: `value` is the last count known in the period, `previous` the last known in the previous period.',
  },
);

const HeadlinesJson = {
  followers: FollowersJson,
  views: FigureJson('Views (or impressions) over the period: the days added up.'),
  engagement: FigureJson("The platform's interactions with the account's content over the period: the days added up."),
  posts_published: FigureJson(
    'Posts of the profile published on the account through the service in the period (posts made on the platform are not counted): never null.',
  ),
};

const HeadlineName = Type.Union([Type.Literal('followers'), Type.Literal('views'), Type.Literal('engagement')]);

export const ProfileReportJson = Type.Object(
  {
    profile_id: Type.String(),
    profile_name: Type.String(),
    from: Day('First day of the period.'),
    to: Day('Last day of the period (included).'),
    previous: Type.Object(
      { from: Day('First day of the previous period.'), to: Day('Its last day.') },
      {
        additionalProperties: false,
        description: 'The period of the same length just before, which each change is against.',
      },
    ),
    totals: Type.Object(HeadlinesJson, {
      additionalProperties: false,
      description: "The profile's figures: each the sum of its accounts' known figures (null when none is known).",
    }),
    accounts: Type.Array(
      Type.Object(
        {
          account_id: Type.String(),
          platform: Type.Enum(PLATFORMS),
          username: Nullable(Type.String(), 'Null: the platform gave none.'),
          display_name: Nullable(Type.String(), 'Null: the platform gave none.'),
          status: Type.String({
            description: '`connected`, `expired` or `disconnected`: its figures stop at the end of its access.',
          }),
          not_offered: Type.Array(HeadlineName, {
            description:
              'The headline figures the platform does not give for an account: always null here (GET /v1/platforms, `insights.report`).',
          }),
          missing_permission: Nullable(
            Type.String(),
            'The insights permission the account has not granted: then every figure but `posts_published` is null.',
          ),
          synced_at: Nullable(At("When the account's figures were last read from the platform."), 'Null: never yet.'),
          ...HeadlinesJson,
          days: Type.Array(
            Type.Object(
              {
                date: Day('The day.'),
                followers: Value('The follower count that day.'),
                views: Value('Views that day.'),
                engagement: Value('Interactions that day.'),
                posts_published: Type.Integer({ minimum: 0, description: 'Posts published that day.' }),
              },
              { additionalProperties: false },
            ),
            { description: 'Every day of the period, oldest first: what the charts draw.' },
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'Every account of the profile, whatever its status, oldest first.' },
    ),
    top_posts: Type.Array(
      Type.Object(
        {
          post_id: Type.String(),
          account_id: Type.String(),
          platform: Type.Enum(PLATFORMS),
          source: Type.Union([Type.Literal('api'), Type.Literal('platform')], {
            description: '`api`: published through the service; `platform`: made on the platform, seen by the service.',
          }),
          text: Nullable(Type.String(), 'Null: a post without text.'),
          permalink: Nullable(Type.String(), 'Null: the platform gave none.'),
          published_at: At('When it was published.'),
          engagement: Type.Number({
            description: 'Its interactions, as its platform counts them (`insights.report.engagement.post`).',
          }),
          figures: Type.Record(Type.String(), Nullable(Type.Number(), 'Null: no data.'), {
            description: 'Its lifetime figures as last read, by metric (GET /v1/posts/{id}/insights).',
          }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'The 5 posts published in the period with the most engagement (a post with no figures yet is not ranked), the newer first on a tie.',
      },
    ),
    generated_at: At('When the report was made.'),
  },
  { additionalProperties: false },
);

export type ProfileReportJson = Static<typeof ProfileReportJson>;

function figureJson(f: Figure) {
  return { value: f.value, previous: f.previous, change: f.change, change_ratio: f.changeRatio };
}

function followersJson(f: FollowersFigure) {
  return { start: f.start, ...figureJson(f) };
}

function headlinesJson(h: Headlines) {
  return {
    followers: followersJson(h.followers),
    views: figureJson(h.views),
    engagement: figureJson(h.engagement),
    posts_published: figureJson(h.postsPublished),
  };
}

function dayJson(date: string, day: ReportDay) {
  return {
    date,
    followers: day.followers,
    views: day.views,
    engagement: day.engagement,
    posts_published: day.postsPublished,
  };
}

export function renderProfileReport(report: ProfileReport): ProfileReportJson {
  return {
    profile_id: report.profile.id,
    profile_name: report.profile.name,
    from: report.from,
    to: report.to,
    previous: report.previous,
    totals: headlinesJson(report.totals),
    accounts: report.accounts.map((a) => ({
      account_id: a.account.id,
      platform: a.account.platform,
      username: a.account.username,
      display_name: a.account.displayName,
      status: a.account.status,
      not_offered: a.notOffered as (typeof HEADLINES)[number][],
      missing_permission: a.missingPermission,
      synced_at: a.syncedAt?.toISOString() ?? null,
      ...headlinesJson(a),
      days: a.days.map((day, i) => dayJson(report.dates[i] as string, day)),
    })),
    top_posts: report.topPosts.map((p) => ({
      post_id: p.postId,
      account_id: p.accountId,
      platform: p.platform,
      source: p.source,
      text: p.text,
      permalink: p.permalink,
      published_at: p.publishedAt.toISOString(),
      engagement: p.engagement,
      figures: { ...p.figures },
    })),
    generated_at: report.generatedAt.toISOString(),
  };
}

export const ReportLinkJson = Type.Object(
  {
    id: Type.String({ description: 'Report link id, `rpl_...`.' }),
    profile_id: Type.String(),
    from: Day('First day of the report the link shows.'),
    to: Day('Last day of the report the link shows (included).'),
    status: Type.Enum(['open', 'expired', 'revoked'], {
      description: '`open`: it shows the report; `expired`: past `expires_at`; `revoked`.',
    }),
    opens: Type.Integer({ minimum: 0, description: 'How many times the page was opened through it.' }),
    first_opened_at: Nullable(At('When it was first opened.'), 'Null: never opened.'),
    last_opened_at: Nullable(At('When it was last opened.'), 'Null: never opened.'),
    created_at: At('When it was made.'),
    expires_at: At('When it stops working.'),
    revoked_at: Nullable(At('When it was revoked.'), 'Null: not revoked.'),
  },
  { additionalProperties: false },
);
export type ReportLinkJson = Static<typeof ReportLinkJson>;

export const NewReportLinkJson = Type.Object(
  {
    ...ReportLinkJson.properties,
    url: Type.String({
      description:
        'The link to the hosted report page; give it to the client. Shown this once: the service keeps only a hash of its token.',
    }),
  },
  { additionalProperties: false },
);

export function renderReportLink(link: ReportLink, status: ReportLinkJson['status']): ReportLinkJson {
  return {
    id: link.id,
    profile_id: link.profileId,
    from: link.periodFrom,
    to: link.periodTo,
    status,
    opens: link.opens,
    first_opened_at: link.firstOpenedAt?.toISOString() ?? null,
    last_opened_at: link.lastOpenedAt?.toISOString() ?? null,
    created_at: link.createdAt.toISOString(),
    expires_at: link.expiresAt.toISOString(),
    revoked_at: link.revokedAt?.toISOString() ?? null,
  };
}

export const ReportScheduleJson = Type.Object(
  {
    id: Type.String({ description: 'Report schedule id, `rps_...`.' }),
    profile_id: Type.String(),
    frequency: Type.Enum(SCHEDULE_FREQUENCIES, {
      description: '`monthly`: the last full calendar month is sent; `weekly`: the last full week, Monday to Sunday.',
    }),
    day: Type.Integer({
      description: 'Monthly: the day of the month it is sent, 1 to 28. Weekly: the weekday, 1 (Monday) to 7 (Sunday).',
    }),
    hour: Type.Integer({ description: 'The hour of that day it is sent, UTC, 0 to 23.' }),
    recipients: Type.Array(Type.String(), { description: "The client's addresses the report is e-mailed to." }),
    link_expires_in_days: Type.Integer({ description: 'How long the report link in each e-mail works.' }),
    active: Type.Boolean({ description: 'False: paused, nothing is sent.' }),
    next_send_at: Nullable(At('When the next report is sent.'), 'Null: paused.'),
    created_at: At('When the schedule was first set.'),
    updated_at: At('When it was last set.'),
  },
  { additionalProperties: false },
);
export type ReportScheduleJson = Static<typeof ReportScheduleJson>;

export function renderReportSchedule(schedule: ReportSchedule): ReportScheduleJson {
  return {
    id: schedule.id,
    profile_id: schedule.profileId,
    frequency: schedule.frequency,
    day: schedule.day,
    hour: schedule.hour,
    recipients: schedule.recipients,
    link_expires_in_days: schedule.linkDays,
    active: schedule.active,
    next_send_at: schedule.active ? schedule.nextSendAt.toISOString() : null,
    created_at: schedule.createdAt.toISOString(),
    updated_at: schedule.updatedAt.toISOString(),
  };
}

export const ReportSendJson = Type.Object(
  {
    id: Type.String({ description: 'Report send id, `rsd_...`.' }),
    profile_id: Type.String(),
    schedule_id: Nullable(Type.String(), 'Null: asked for through POST /v1/profiles/{id}/report-sends.'),
    from: Day('First day of the report sent.'),
    to: Day('Last day of the report sent (included).'),
    recipients: Type.Array(Type.String()),
    status: Type.Enum(REPORT_SEND_STATUSES, {
      description: `\`sending\`: not yet taken by the mail server (a failed try waits here for the next, \`next_attempt_at\`); \`sent\`; \`failed\`: refused for good, the last of ${SEND_ATTEMPTS} tries failed, its report link was revoked or expired first, or the profile was deleted.`,
    }),
    attempts: Type.Integer({ description: 'Tries of the e-mail so far.' }),
    last_error: Nullable(
      Type.String(),
      "The mail server's answer to the last failed try (or why it was given up); null: none failed.",
    ),
    refused: Type.Array(
      Type.Object(
        { address: Type.String(), reason: Type.String({ description: "The mail server's answer." }) },
        { additionalProperties: false },
      ),
      { description: 'The addresses the mail server refused while it took the e-mail for the others.' },
    ),
    next_attempt_at: Nullable(At('When the next try is due.'), 'Null: sent or failed.'),
    link_id: Type.String({ description: 'The report link in the e-mail (GET /v1/profiles/{id}/report-links).' }),
    sent_at: Nullable(At('When the mail server took it.'), 'Null: not sent.'),
    created_at: At('When the send was made.'),
  },
  { additionalProperties: false },
);
export type ReportSendJson = Static<typeof ReportSendJson>;

export function renderReportSend(send: ReportSend): ReportSendJson {
  return {
    id: send.id,
    profile_id: send.profileId,
    schedule_id: send.scheduleId,
    from: send.periodFrom,
    to: send.periodTo,
    recipients: send.recipients,
    status: send.status,
    attempts: send.attempts,
    last_error: send.lastError,
    refused: send.refused,
    next_attempt_at: send.nextAttemptAt?.toISOString() ?? null,
    link_id: send.linkId,
    sent_at: send.sentAt?.toISOString() ?? null,
    created_at: send.createdAt.toISOString(),
  };
}
