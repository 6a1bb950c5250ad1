/**
 * The MCP tools: each is one operation of the API, its input schema the operation's own
 * parameters and JSON body as the OpenAPI document states them (so the tool accepts what the
 * API accepts, and the API's validation answers for both).
 */
import {
  type HttpMethod,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiParameter,
  operationOf,
} from './openapi.ts';
import { UNTRUSTED_NOTE, type UntrustedRule } from './untrusted.ts';

interface ToolSpec {
  name: string;
  title: string;
  method: HttpMethod;
  path: string;
  /** What the tool is for, to an agent choosing one; the operation's own description follows it. */
  purpose: string;
  /** The argument each path parameter is given as: `{id}` of a post is `post_id`. */
  pathArguments?: Record<string, string>;
  /** Where the answer holds text written by other people, marked as untrusted data. */
  untrusted?: UntrustedRule[];
  /** Changes nothing (GET). */
  readOnly?: boolean;
  /** Removes or ends something that cannot be brought back. */
  destructive?: boolean;
  /** Acts outside the service: publishes on a platform, fetches a URL, sends to an endpoint. */
  openWorld?: boolean;
}

/** A comment's text and its author's name: written by whoever commented. */
const COMMENT_TEXT: UntrustedRule[] = [{ key: 'text', within: 'commented_at' }, { key: 'author_username' }];
/** An account's names, chosen by the client who owns the account on the platform. */
const ACCOUNT_NAMES: UntrustedRule[] = [{ key: 'username' }, { key: 'display_name' }];
/**
 * A post made on the platform (not through the API): its text is the account holder's; and the
 * client's comment with an approval decision.
 */
const POST_OTHERS_TEXT: UntrustedRule[] = [
  { key: 'text', within: 'source', equals: 'platform' },
  { key: 'comment', within: 'approval_link_id' },
];

const SPECS: readonly ToolSpec[] = [
  {
    name: 'list_profiles',
    title: 'List profiles',
    method: 'GET',
    path: '/v1/profiles',
    purpose: 'Lists the profiles (one per client of the agency), a page at a time. Owner keys only.',
    readOnly: true,
  },
  {
    name: 'create_profile',
    title: 'Create a profile',
    method: 'POST',
    path: '/v1/profiles',
    purpose: 'Creates a profile for a new client. Owner keys only.',
  },
  {
    name: 'create_connect_link',
    title: 'Create a connect link',
    method: 'POST',
    path: '/v1/profiles/{id}/connect-links',
    pathArguments: { id: 'profile_id' },
    purpose:
      'Creates a single-use link to send a client, who opens it to connect their social accounts to the profile.',
  },
  {
    name: 'list_accounts',
    title: 'List connected accounts',
    method: 'GET',
    path: '/v1/accounts',
    purpose:
      'Lists the connected social accounts with their status (`connected`, or `expired`/`disconnected`: the client must reconnect).',
    untrusted: ACCOUNT_NAMES,
    readOnly: true,
  },
  {
    name: 'list_option_values',
    title: "List an option's values for an account",
    method: 'GET',
    path: '/v1/accounts/{id}/options/{option}',
    pathArguments: { id: 'account_id', option: 'option' },
    purpose:
      "Lists the values a post option takes for one account where they are the account's own on its platform (list_platforms: `publishing.listed_options`), such as a Pinterest account's boards for `board_id`: each `value` to set in create_post, with a `label`.",
    // A board's name is the account holder's.
    untrusted: [{ key: 'label' }],
    readOnly: true,
  },
  {
    name: 'create_reconnect_link',
    title: 'Create a reconnect link',
    method: 'POST',
    path: '/v1/accounts/{id}/reconnect-links',
    pathArguments: { id: 'account_id' },
    purpose:
      'Creates a single-use link to send the client, who opens it to reconnect an expired or disconnected account (the same account, in the same profile).',
  },
  {
    name: 'import_media',
    title: 'Import a medium from a URL',
    method: 'POST',
    path: '/v1/media',
    purpose:
      'Has the service fetch an image, a video or a PDF document from a public https URL, for use in posts (`media_ids`).',
    openWorld: true,
  },
  {
    name: 'list_platforms',
    title: 'List the platforms',
    method: 'GET',
    path: '/v1/platforms',
    purpose:
      "Lists what each platform takes and offers: the kinds of post, the text's longest length and how the platform counts it, media limits, each platform's post options (`platforms.<platform>` of create_post), and whether comments and insights (which metrics) exist there. Read it before writing a post for a platform.",
    readOnly: true,
  },
  {
    name: 'create_post',
    title: 'Create a post',
    method: 'POST',
    path: '/v1/posts',
    purpose:
      "Creates a post on one or more accounts: published now (no `scheduled_at`), scheduled (`scheduled_at`), or kept as a draft (`draft: true`). Each platform's rules (text length as it counts it, media, options) are in list_platforms.",
    openWorld: true,
  },
  {
    name: 'list_posts',
    title: 'List posts',
    method: 'GET',
    path: '/v1/posts',
    purpose: 'Lists posts with their targets (one per account) and statuses, newest first.',
    untrusted: POST_OTHERS_TEXT,
    readOnly: true,
  },
  {
    name: 'get_post',
    title: 'Get a post',
    method: 'GET',
    path: '/v1/posts/{id}',
    pathArguments: { id: 'post_id' },
    purpose: "Reads one post with each target's status, permalink and error.",
    untrusted: POST_OTHERS_TEXT,
    readOnly: true,
  },
  {
    name: 'create_approval_link',
    title: 'Create an approval link',
    method: 'POST',
    path: '/v1/posts/{id}/approval-links',
    pathArguments: { id: 'post_id' },
    purpose:
      'Creates a single-use link to send the client, who opens it to approve the post or ask for changes (for a post that needs approval: `approval` not null).',
  },
  {
    name: 'retry_post',
    title: 'Retry a post',
    method: 'POST',
    path: '/v1/posts/{id}/retry',
    pathArguments: { id: 'post_id' },
    purpose: "Publishes a post's failed targets again, now.",
    openWorld: true,
  },
  {
    name: 'cancel_post',
    title: 'Cancel a post',
    method: 'DELETE',
    path: '/v1/posts/{id}',
    pathArguments: { id: 'post_id' },
    purpose: "Cancels a post's targets that have not been published yet.",
    destructive: true,
    openWorld: true,
  },
  {
    name: 'list_comments',
    title: 'List comments (the inbox)',
    method: 'GET',
    path: '/v1/comments',
    purpose: "Lists other people's comments on the accounts' posts, newest first.",
    untrusted: COMMENT_TEXT,
    readOnly: true,
  },
  {
    name: 'get_comment',
    title: 'Get a comment',
    method: 'GET',
    path: '/v1/comments/{id}',
    pathArguments: { id: 'comment_id' },
    purpose: 'Reads one comment with the replies sent to it.',
    untrusted: COMMENT_TEXT,
    readOnly: true,
  },
  {
    name: 'reply_to_comment',
    title: 'Reply to a comment',
    method: 'POST',
    path: '/v1/comments/{id}/reply',
    pathArguments: { id: 'comment_id' },
    purpose: 'Replies to a comment as the account, publicly, on the platform.',
    openWorld: true,
  },
  {
    name: 'hide_comment',
    title: 'Hide or unhide a comment',
    method: 'POST',
    path: '/v1/comments/{id}/hide',
    pathArguments: { id: 'comment_id' },
    purpose: 'Hides a comment on the platform (`hidden: true`), or shows it again (`false`).',
    untrusted: COMMENT_TEXT,
    openWorld: true,
  },
  {
    name: 'delete_reply',
    title: 'Delete a reply sent through the API',
    method: 'DELETE',
    path: '/v1/comments/{id}/replies/{reply_id}',
    pathArguments: { id: 'comment_id' },
    purpose:
      "Deletes, on the platform, a reply the account sent through the API (one of the comment's `replies`); the reply then shows `deleted`. Deleting it again answers the same. Where the platform offers it (list_platforms: `comments.delete_reply`).",
    destructive: true,
    openWorld: true,
  },
  {
    name: 'set_comment_reply_status',
    title: "Set a comment's reply status",
    method: 'PATCH',
    path: '/v1/comments/{id}',
    pathArguments: { id: 'comment_id' },
    purpose: "Sets the inbox's reply status of a comment (`unreplied`, `replied`, `dismissed`).",
    untrusted: COMMENT_TEXT,
  },
  {
    name: 'get_account_insights',
    title: "Get an account's insights",
    method: 'GET',
    path: '/v1/accounts/{id}/insights',
    pathArguments: { id: 'account_id' },
    purpose: "Reads an account's daily figures (followers, views, reach...) over a range of days.",
    untrusted: ACCOUNT_NAMES,
    readOnly: true,
  },
  {
    name: 'get_post_insights',
    title: "Get a post's insights",
    method: 'GET',
    path: '/v1/posts/{id}/insights',
    pathArguments: { id: 'post_id' },
    purpose: "Reads a published post's figures (views, likes, replies...) per account.",
    readOnly: true,
  },
  {
    name: 'get_profile_report',
    title: "Get a profile's report",
    method: 'GET',
    path: '/v1/profiles/{id}/report',
    pathArguments: { id: 'profile_id' },
    purpose:
      "Reads a profile's period at a glance (last calendar month by default): each account's followers, views, engagement and posts published beside the previous period, the profile's sums, and the best posts.",
    // Accounts' names are their holders'; a post made on the platform has its holder's text.
    untrusted: [...ACCOUNT_NAMES, { key: 'text', within: 'source', equals: 'platform' }],
    readOnly: true,
  },
  {
    name: 'list_report_sends',
    title: "List a profile's report e-mails",
    method: 'GET',
    path: '/v1/profiles/{id}/report-sends',
    pathArguments: { id: 'profile_id' },
    purpose:
      "Lists the reports e-mailed to a profile's client, by its schedule or asked for, newest first: each one's period, addresses, status (`sending`, `sent`, `failed`), tries and the mail server's last answer.",
    readOnly: true,
  },
  {
    name: 'list_webhooks',
    title: 'List webhook endpoints',
    method: 'GET',
    path: '/v1/webhooks',
    purpose: 'Lists the webhook endpoints events are sent to (never their secrets).',
    readOnly: true,
  },
  {
    name: 'list_audit_log',
    title: 'List the audit log',
    method: 'GET',
    path: '/v1/audit-log',
    purpose:
      'Lists who changed what, when and from where (an API key by its name, or the link a client used), newest first; filters by actor, profile, object and time. Owner keys only.',
    // A key's name is its maker's words, and a User-Agent any caller's.
    untrusted: [{ key: 'name', within: 'type' }, { key: 'user_agent' }],
    readOnly: true,
  },
  {
    name: 'send_test_webhook',
    title: 'Send a test webhook',
    method: 'POST',
    path: '/v1/webhooks/{id}/test',
    pathArguments: { id: 'webhook_id' },
    purpose: 'Sends a `webhook.test` event to one endpoint now, to check that it receives and verifies deliveries.',
    openWorld: true,
  },
];

/** How a tool call becomes an API request. */
export interface ToolCallPlan {
  method: HttpMethod;
  /** The path with `{name}` for each parameter. */
  path: string;
  /** Path parameter name to the argument that fills it. */
  pathArguments: Record<string, string>;
  query: Set<string>;
  /** The body's fields, when the operation takes a JSON body. */
  body: Set<string> | null;
  /** The tool takes `idempotency_key` (a POST whose operation takes the header). */
  idempotency: boolean;
  /** The tool takes `profile` (the Service-Profile header). */
  profile: boolean;
  untrusted: UntrustedRule[];
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
  plan: ToolCallPlan;
}

/** Whether the caller may pick a profile per call (an owner key on a connection bound to none). */
export interface ToolOptions {
  profileArgument: boolean;
}

const PROFILE_ARGUMENT: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description:
    "The profile (its id, `prf_...`, or its external_id) to act in. Without it an owner key sees every profile's data, and what it creates goes to the default profile.",
};

const IDEMPOTENCY_ARGUMENT: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7e]+$',
  description:
    'Optional. The same key on a repeated call (1 to 255 printable ASCII characters) answers the first answer again and changes nothing twice: use one when retrying a call whose answer was lost.',
};

function parameterSchema(parameter: OpenApiParameter): JsonSchema {
  const schema: JsonSchema = { ...(parameter.schema ?? { type: 'string' }) };
  if (parameter.description && schema.description === undefined) schema.description = parameter.description;
  return schema;
}

function buildTool(doc: OpenApiDocument, spec: ToolSpec, options: ToolOptions): McpTool {
  const operation = operationOf(doc, spec.method, spec.path);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (name: string, schema: JsonSchema, isRequired: boolean) => {
    // Path, query and body fields share one argument object, so a name may mean one thing only.
    if (name in properties) throw new Error(`tool ${spec.name}: the argument ${name} would stand for two fields`);
    properties[name] = schema;
    if (isRequired) required.push(name);
  };

  const pathArguments: Record<string, string> = {};
  for (const parameter of operation.path) {
    const argument = spec.pathArguments?.[parameter.name] ?? parameter.name;
    pathArguments[parameter.name] = argument;
    add(argument, parameterSchema(parameter), true);
  }
  for (const parameter of operation.query) add(parameter.name, parameterSchema(parameter), parameter.required === true);
  let body: Set<string> | null = null;
  if (operation.body) {
    const fields = operation.body.properties;
    if (operation.body.type !== 'object' || fields === null || typeof fields !== 'object') {
      throw new Error(`tool ${spec.name}: the body of ${spec.method} ${spec.path} is not an object schema`);
    }
    const bodyRequired = new Set(Array.isArray(operation.body.required) ? operation.body.required : []);
    body = new Set();
    for (const [name, schema] of Object.entries(fields as Record<string, JsonSchema>)) {
      add(name, schema, bodyRequired.has(name));
      body.add(name);
    }
  }
  const idempotency = spec.method === 'POST' && operation.headers.has('idempotency-key');
  if (idempotency) add('idempotency_key', IDEMPOTENCY_ARGUMENT, false);
  const profile = options.profileArgument && operation.headers.has('service-profile');
  if (profile) add('profile', PROFILE_ARGUMENT, false);

  const untrusted = spec.untrusted ?? [];
  const description = [
    spec.purpose,
    untrusted.length > 0 ? UNTRUSTED_NOTE : '',
    `API: ${spec.method} ${spec.path}. ${operation.description}`,
    "An error comes back as a tool error holding the API's `status` and `error` (`code`, `message`).",
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  return {
    name: spec.name,
    title: spec.title,
    description,
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
    annotations: {
      title: spec.title,
      readOnlyHint: spec.readOnly === true,
      destructiveHint: spec.destructive === true,
      openWorldHint: spec.openWorld === true,
    },
    plan: {
      method: spec.method,
      path: spec.path,
      pathArguments,
      query: new Set(operation.query.map((p) => p.name)),
      body,
      idempotency,
      profile,
      untrusted,
    },
  };
}

/** Every tool, built from the API's OpenAPI document. */
export function buildTools(doc: OpenApiDocument, options: ToolOptions): McpTool[] {
  return SPECS.map((spec) => buildTool(doc, spec, options));
}
