/**
 * The API's resources as the dashboard reads them: the fields it uses, named as the
 * OpenAPI document (`/openapi.json`) names them.
 */

export type Platform = 'instagram' | 'threads' | 'tiktok' | 'facebook';
export const PLATFORMS: readonly Platform[] = ['instagram', 'threads', 'tiktok', 'facebook'];
export const PLATFORM_NAMES: Record<Platform, string> = {
  instagram: 'Instagram',
  threads: 'Threads',
  tiktok: 'TikTok',
  facebook: 'Facebook Page',
};

export interface Session {
  id: string;
  key_id: string;
  key_kind: 'owner' | 'profile';
  profile_id: string | null;
  csrf_token: string;
  expires_at: string;
  idle_expires_at: string;
  idle_timeout_seconds: number;
}

export interface Profile {
  id: string;
  name: string;
  external_id: string | null;
  is_default: boolean;
  /** Posts of the profile need the client's approval unless a post says otherwise. */
  post_approval_required: boolean;
  created_at: string;
  updated_at: string;
}

export interface ApiKey {
  id: string;
  profile_id: string;
  name: string | null;
  key_start: string;
  created_at: string;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface Account {
  id: string;
  profile_id: string;
  platform: Platform;
  platform_user_id: string;
  username: string | null;
  display_name: string | null;
  avatar_url: string | null;
  status: 'connected' | 'expired' | 'disconnected';
  permissions: string[];
  notices: 'subscribed' | 'polling_only' | null;
  notices_error: string | null;
  /** Null while connected; when expired or disconnected, the posts waiting on it and when the first is due. */
  posts_at_risk: { count: number; next_scheduled_at: string | null } | null;
  connected_at: string;
  created_at: string;
  updated_at: string;
}

export interface ConnectLink {
  url: string;
  profile_id: string;
  expires_at: string;
}

/** A reconnect link: a connect link for one account alone (`POST /v1/accounts/{id}/reconnect-links`). */
export interface ReconnectLink {
  url: string;
  account_id: string;
  profile_id: string;
  expires_at: string;
}

export interface RedirectOrigin {
  id: string;
  origin: string;
  created_at: string;
}

export interface ConnectSettings {
  brand_name: string | null;
  updated_at: string | null;
}

/** How an account is named in lists: its handle, else its name, else its platform id. */
export function accountLabel(a: Pick<Account, 'username' | 'display_name' | 'platform_user_id' | 'platform'>): string {
  const name = a.username ? `@${a.username}` : (a.display_name ?? a.platform_user_id);
  return `${name} (${PLATFORM_NAMES[a.platform]})`;
}

/** The event types an endpoint may receive, as the API names them. */
export const EVENT_TYPES = [
  'account.connected',
  'account.expired',
  'account.disconnected',
  'account.expiring',
  'post.published',
  'post.failed',
  'post.approved',
  'post.changes_requested',
  'comment.created',
  'profile.deleted',
  'webhook.test',
] as const;

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  profile_id: string | null;
  active: boolean;
  consecutive_failures: number;
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string;
}

export interface DeliveryAttempt {
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  succeeded: boolean;
}

export interface Delivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  attempts: DeliveryAttempt[];
}

export type PostStatus =
  | 'draft'
  | 'awaiting_approval'
  | 'scheduled'
  | 'publishing'
  | 'published'
  | 'partially_published'
  | 'failed'
  | 'cancelled';
export const POST_STATUSES: readonly PostStatus[] = [
  'draft',
  'awaiting_approval',
  'scheduled',
  'publishing',
  'published',
  'partially_published',
  'failed',
  'cancelled',
];

export interface Target {
  id: string;
  account_id: string;
  platform: Platform;
  status: 'draft' | 'awaiting_approval' | 'scheduled' | 'publishing' | 'published' | 'failed' | 'cancelled';
  waiting_reason: string | null;
  platform_post_id: string | null;
  permalink: string | null;
  published_at: string | null;
  attempts: number;
  error: { code: string; message: string; platform_code: string | null } | null;
  first_comment: {
    status: 'pending' | 'posted' | 'failed';
    platform_comment_id: string | null;
    error: string | null;
  } | null;
}

export interface Post {
  id: string;
  profile_id: string;
  source: 'api' | 'platform';
  status: PostStatus;
  text: string | null;
  media_ids: string[];
  platforms: Record<string, Record<string, unknown>>;
  scheduled_at: string;
  /** Null when the post needs no approval; else where the client's approval stands. */
  approval: Approval | null;
  created_at: string;
  updated_at: string;
  targets: Target[];
}

export type ApprovalStatus = 'pending' | 'approved' | 'changes_requested';

export interface Approval {
  status: ApprovalStatus;
  decided_at: string | null;
  approval_link_id: string | null;
  /** Written by the client: shown as text only. */
  comment: string | null;
}

export interface ApprovalLink {
  id: string;
  post_id: string;
  status: 'open' | 'used' | 'expired' | 'revoked';
  decision: 'approved' | 'changes_requested' | null;
  /** Written by the client: shown as text only. */
  comment: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

/** A link just made: its URL is in this answer only. */
export interface NewApprovalLink extends ApprovalLink {
  url: string;
}

export interface Media {
  id: string;
  profile_id: string;
  type: 'image' | 'video';
  mime_type: string;
  size_bytes: number;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  created_at: string;
}

export type ReplyStatus = 'unreplied' | 'replied' | 'dismissed';
export const REPLY_STATUSES: readonly ReplyStatus[] = ['unreplied', 'replied', 'dismissed'];

export interface CommentReply {
  id: string;
  comment_id: string;
  text: string;
  status: 'sent' | 'sending' | 'failed';
  platform_comment_id: string | null;
  sent_at: string | null;
  error: string | null;
  created_at: string;
}

export interface Comment {
  id: string;
  account_id: string;
  post_id: string;
  platform: Platform;
  platform_comment_id: string;
  parent_id: string | null;
  author_id: string | null;
  author_username: string | null;
  text: string;
  commented_at: string;
  hidden: boolean;
  reply_status: ReplyStatus;
  from_account: boolean;
  can_reply: boolean;
  can_hide: boolean;
  replies: CommentReply[];
  created_at: string;
  updated_at: string;
}

export interface MetricSeries {
  total: number | null;
  values: { date: string; value: number | null }[];
}

export interface AccountInsights {
  account_id: string;
  platform: Platform;
  from: string;
  to: string;
  metrics: Record<string, MetricSeries>;
  missing_permission: string | null;
  synced_at: string | null;
}

export interface PostInsights {
  post_id: string;
  account_id: string;
  platform: Platform;
  metrics: Record<string, number | null>;
  missing_permission: string | null;
  synced_at: string | null;
}
