/**
 * The API's resources the screens hand each other, each named from the types generated from
 * the OpenAPI document (src/client/openapi-types.ts), never written out again: a field the API
 * changes is a compile error where a screen uses it. The lists of values the screens offer
 * (statuses, event types) are checked against the same types.
 */
import type { components, ListItem, paths } from '../../src/client/index.ts';
import { platformLabel } from './catalogue.ts';

type Method = 'get' | 'post' | 'patch' | 'delete';

/** The JSON body `path` answers `method` with `status`. */
type Answer<P extends keyof paths, M extends Method, S extends number> =
  NonNullable<paths[P][M]> extends {
    responses: { [K in S]: { content: { 'application/json': infer Body } } };
  }
    ? Body
    : never;

/** The JSON body `method` of `path` takes. */
export type RequestBody<P extends keyof paths, M extends Method> =
  NonNullable<paths[P][M]> extends {
    requestBody?: { content: { 'application/json': infer Body } };
  }
    ? Body
    : never;

export type Session = Answer<'/v1/session', 'get', 200>;
export type AuditEntry = components['schemas']['AuditEntry'];
export type Member = components['schemas']['Member'];
export type MemberRoleName = Member['roles'][number]['role'];
export type Profile = components['schemas']['Profile'];
export type ApiKey = components['schemas']['ApiKey'];
/** A key just made: the key itself is in this answer only. */
export type CreatedApiKey = Answer<'/v1/profiles/{id}/api-keys', 'post', 201>;
export type Account = components['schemas']['Account'];
export type RedirectOrigin = components['schemas']['RedirectOrigin'];
export type PlatformApp = components['schemas']['PlatformApp'];
export type ConnectLink = Answer<'/v1/profiles/{id}/connect-links', 'post', 201>;
/** A connect link for one account alone. */
export type ReconnectLink = Answer<'/v1/accounts/{id}/reconnect-links', 'post', 201>;
export type Media = components['schemas']['Media'];

export type WebhookEndpoint = Answer<'/v1/webhooks/{id}', 'get', 200>;
/** An endpoint just made: its signing secret is in this answer only. */
export type WebhookEndpointWithSecret = Answer<'/v1/webhooks', 'post', 201>;
export type Delivery = ListItem<'/v1/webhooks/{id}/deliveries'>;
export type DeliveryAttempt = Delivery['attempts'][number];

export type Post = Answer<'/v1/posts/{id}', 'get', 200>;
export type PostStatus = Post['status'];
export type Target = Post['targets'][number];
export type ApprovalLink = ListItem<'/v1/posts/{id}/approval-links'>;
/** A link just made: its URL is in this answer only. */
export type NewApprovalLink = Answer<'/v1/posts/{id}/approval-links', 'post', 201>;

export type Comment = Answer<'/v1/comments/{id}', 'get', 200>;
export type ReplyStatus = Comment['reply_status'];
export type CommentReply = Comment['replies'][number];

export type MetricSeries = Answer<'/v1/accounts/{id}/insights', 'get', 200>['metrics'][string];
export type ProfileReport = Answer<'/v1/profiles/{id}/report', 'get', 200>;
export type ReportAccount = ProfileReport['accounts'][number];
export type ReportFigure = ProfileReport['totals']['views'];
export type ReportLink = ListItem<'/v1/profiles/{id}/report-links'>;
export type NewReportLink = Answer<'/v1/profiles/{id}/report-links', 'post', 201>;
export type ReportSchedule = Answer<'/v1/profiles/{id}/report-schedule', 'get', 200>;

/** Every value of a union, in the order written: the compiler refuses a list that misses one. */
function valuesOf<T extends string>(all: Record<T, true>): T[] {
  return Object.keys(all) as T[];
}

export const POST_STATUSES = valuesOf<PostStatus>({
  draft: true,
  awaiting_approval: true,
  scheduled: true,
  publishing: true,
  published: true,
  partially_published: true,
  failed: true,
  cancelled: true,
});

export const REPLY_STATUSES = valuesOf<ReplyStatus>({ unreplied: true, replied: true, dismissed: true });

export type EventType = RequestBody<'/v1/webhooks', 'post'>['events'][number];

/** The event types an endpoint may receive. */
export const EVENT_TYPES = valuesOf<EventType>({
  'account.connected': true,
  'account.expired': true,
  'account.disconnected': true,
  'account.expiring': true,
  'post.published': true,
  'post.failed': true,
  'post.approved': true,
  'post.changes_requested': true,
  'comment.created': true,
  'profile.deleted': true,
  'report.sent': true,
  'report.failed': true,
  'webhook.test': true,
});

/** How an account is named in lists: its handle, else its name, else its platform id (a report's: its id). */
export function accountLabel(
  a: Pick<Account, 'username' | 'display_name' | 'platform'> & ({ platform_user_id: string } | { account_id: string }),
): string {
  const name = a.username
    ? `@${a.username}`
    : (a.display_name ?? ('platform_user_id' in a ? a.platform_user_id : a.account_id));
  return `${name} (${platformLabel(a.platform)})`;
}
