/**
 * The sandbox's control API (`/sandbox/_control`), for tests and demos: make users, add
 * comments by other people, set daily figures, expire or revoke tokens, make the next
 * call or publish fail, throttle a user, and read what the service did and how many platform
 * calls it made. docs/sandbox.md.
 */
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { makeValidatorCompiler } from '../http/validation.ts';
import { FAULT_PRESETS } from './answers.ts';
import { deletePushSubscription, listPushSubscriptions, subscribePush } from './google/pubsub.ts';
import { DAILY_QUOTA_UNITS, setUnitsUsed, unitsUsed } from './google/quota.ts';
import { platformPart, type Store } from './platform.ts';
import { SANDBOX_PLATFORMS } from './registry.ts';
import type { SandboxAccount, SandboxPushSubscription } from './schema.ts';
import { ensureUser, findAccount, findAccountByUsername, pagesOf, setAccountPrivate } from './store/accounts.ts';
import { listActivity } from './store/activity.ts';
import { findApp, registerApp } from './store/apps.ts';
import { addComment, editComment, findComment } from './store/comments.ts';
import { addFault, setThrottle } from './store/faults.ts';
import { endTokens } from './store/grants.ts';
import { numericId } from './store/ids.ts';
import { LIFETIME_DAY, setInsights } from './store/insights.ts';
import { findPost, listPosts } from './store/posts.ts';
import type { Setting } from './store/setting-kinds.ts';
import { getSetting, setSetting } from './store/settings.ts';
import { markTester } from './store/testers.ts';
import {
  listDeliveries,
  listSubscriptions,
  notifyCommentAdded,
  SubscriptionRefused,
  subscribe,
  unsubscribe,
} from './webhooks.ts';

const PlatformName = Type.Union(SANDBOX_PLATFORMS.map((p) => Type.Literal(p.name)));
const Username = Type.String({ pattern: '^[A-Za-z0-9._]{1,60}$' });
const Who = { platform: PlatformName, username: Username };
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

const UserBody = Type.Object(Who, { additionalProperties: false });
/** What a Google project spent today: `PUT /_control/youtube/quota/<client id>`. */
const QuotaBody = Type.Object(
  { used_units: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }) },
  { additionalProperties: false },
);
/** Paths naming a user: validated like bodies, so a malformed name is a 400, never a query. */
const UserParams = Type.Object(Who);
const SettingParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });
const NewUserBody = Type.Object(
  {
    ...Who,
    // A chosen id, for tests of ids beyond 2^53 (the documented 17841405793187219).
    id: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{5,18}$' })),
    // Set on a new user, changed on an existing one; left out, an existing user keeps its own.
    private: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const CommentBody = Type.Object(
  {
    ...Who,
    post_id: Type.Optional(Type.String({ minLength: 1 })),
    parent_id: Type.Optional(Type.String({ minLength: 1 })),
    author_username: Username,
    text: Type.String({ minLength: 1, maxLength: 2200 }),
    commented_at: Type.Optional(Type.String({ format: 'date-time' })),
    /** YouTube only: a comment YouTube holds for review (moderationStatus heldForReview). */
    held: Type.Optional(Type.Boolean()),
    /** Google Business Profile only: a review's star rating (a review without one has five stars). */
    rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
  },
  { additionalProperties: false },
);
const CommentParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
/** Its author edits a comment: new words, or (a Google Business Profile review) new stars. */
const CommentEditBody = Type.Object(
  {
    text: Type.Optional(Type.String({ minLength: 1, maxLength: 2200 })),
    rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
/** A Cloud Pub/Sub push subscription with authentication (its pushConfig's endpoint and oidcToken). */
const PushSubscriptionBody = Type.Object(
  {
    name: Type.String({ pattern: '^projects/[^/\\s]+/subscriptions/[^/\\s]+$' }),
    topic: Type.String({ pattern: '^projects/[^/\\s]+/topics/[^/\\s]+$' }),
    push_endpoint: Type.String({ pattern: '^https?://', maxLength: 2000 }),
    service_account_email: Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$' }),
    /** Pub/Sub's default: the push endpoint. */
    audience: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  },
  { additionalProperties: false },
);
const PushSubscriptionQuery = Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false });
const InsightsBody = Type.Object(
  {
    ...Who,
    post_id: Type.Optional(Type.String({ minLength: 1 })),
    metric: Type.String({ pattern: '^[A-Za-z_]{1,60}$' }),
    values: Type.Array(Type.Object({ day: Day, value: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]) }), {
      minItems: 1,
      maxItems: 400,
    }),
  },
  { additionalProperties: false },
);
const FaultBody = Type.Object(
  {
    ...Who,
    trigger: Type.Union([Type.Literal('call'), Type.Literal('publish'), Type.Literal('refresh')], { default: 'call' }),
    error: Type.Union([...FAULT_PRESETS.map((p) => Type.Literal(p)), Type.Literal('custom')]),
    status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
    body: Type.Optional(Type.Unknown()),
    /** Every such call answers the fault for this long (the sandbox's clock), not the next one only. */
    seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 * 86_400 })),
  },
  { additionalProperties: false },
);
const TesterBody = Type.Object(
  {
    // Only a platform with a call that answers the app's testers alone takes testers.
    platform: Type.Union(SANDBOX_PLATFORMS.filter((p) => p.testers).map((p) => Type.Literal(p.name))),
    username: Username,
    client_id: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
/** The platforms whose sandbox knows its apps (refuses an unregistered client id, as X does). */
const APP_PLATFORMS = ['x'] as const;
const AppBody = Type.Object(
  {
    platform: Type.Union(APP_PLATFORMS.map((p) => Type.Literal(p))),
    client_id: Type.String({ minLength: 1, maxLength: 200 }),
    client_secret: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);
const AppParams = Type.Object(
  { platform: Type.Union(APP_PLATFORMS.map((p) => Type.Literal(p))), clientId: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
const ThrottleBody = Type.Object(
  { ...Who, seconds: Type.Integer({ minimum: 0, maximum: 86_400 }) },
  { additionalProperties: false },
);

const CallsQuery = Type.Object(
  { since: Type.Optional(Type.String({ format: 'date-time' })) },
  { additionalProperties: false },
);

const WebhookParams = Type.Object({ platform: Type.String({ pattern: '^[a-z]{1,20}$' }) });
const WebhookBody = Type.Object(
  {
    callback_url: Type.String({ pattern: '^https?://', maxLength: 2000 }),
    verify_token: Type.String({ minLength: 1, maxLength: 200 }),
    app_secret: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
const DeliveriesQuery = Type.Object(
  {
    platform: Type.Optional(Type.String({ pattern: '^[a-z_]{1,20}$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);

/** The platforms that send comment webhooks. */
const WEBHOOK_PLATFORMS: readonly string[] = SANDBOX_PLATFORMS.filter((p) => p.webhooks !== null).map((p) => p.name);

/** Every switch a platform reads, by name (a shared one once). */
const SETTINGS: ReadonlyMap<string, Setting> = new Map(
  SANDBOX_PLATFORMS.flatMap((p) => p.settings).map((setting) => [setting.name, setting]),
);

function renderPushSubscription(s: SandboxPushSubscription) {
  return {
    name: s.name,
    topic: s.topic,
    push_endpoint: s.pushEndpoint,
    service_account_email: s.serviceAccountEmail,
    audience: s.audience,
    created_at: s.createdAt.toISOString(),
  };
}

class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function renderAccount(a: SandboxAccount) {
  return {
    id: a.id,
    platform: a.platform,
    kind: a.kind,
    username: a.username,
    name: a.name,
    avatar_url: a.avatarUrl,
    followers_count: a.followersCount,
    parent_id: a.parentId,
    instagram_business_account_id: a.instagramBusinessAccountId,
    throttled_until: a.throttledUntil?.toISOString() ?? null,
    private: a.private,
  };
}

export function controlRoutes(store: Store) {
  async function account(platform: string, username: string): Promise<SandboxAccount> {
    const found = await findAccountByUsername(store, platform, username);
    if (!found) throw new ControlError(404, 'not_found', `no ${platform} user or page ${username}`);
    return found;
  }

  async function describe(a: SandboxAccount) {
    const { posts } = await listPosts(store, a.id, { limit: 100 });
    const pages = a.kind === 'user' ? await pagesOf(store, a.id) : [];
    return {
      ...renderAccount(a),
      posts: posts.map((p) => ({
        id: p.id,
        caption: p.caption,
        media_type: p.mediaType,
        permalink: p.permalink,
        via_api: p.viaApi,
        created_at: p.createdAt.toISOString(),
      })),
      pages: pages.map(renderAccount),
    };
  }

  return async (app: FastifyInstance) => {
    // JSON bodies are not coerced (null stays "no data", not 0), as in the service's API.
    app.setValidatorCompiler(makeValidatorCompiler());
    app.setErrorHandler((error, _request, reply) => {
      if (error instanceof ControlError) {
        return reply.code(error.status).send({ error: { code: error.code, message: error.message } });
      }
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      return reply
        .code(status < 500 ? 400 : 500)
        .send({ error: { code: status < 500 ? 'invalid_request' : 'internal', message: (error as Error).message } });
    });

    app.post('/users', { schema: { body: NewUserBody } }, async (request, reply) => {
      const body = request.body as Static<typeof NewUserBody>;
      const holder = body.id === undefined ? undefined : await findAccount(store, body.id);
      if (holder && (holder.platform !== body.platform || holder.username !== body.username)) {
        throw new ControlError(409, 'conflict', `id ${body.id} belongs to ${holder.platform} user ${holder.username}`);
      }
      let user = await ensureUser(store, body.platform, body.username, body.id);
      if (body.id !== undefined && user.id !== body.id) {
        throw new ControlError(409, 'conflict', `${body.username} exists with id ${user.id}`);
      }
      if (body.private !== undefined && user.private !== body.private) {
        user = await setAccountPrivate(store, user.id, body.private);
      }
      return reply.code(201).send(await describe(user));
    });

    app.get('/users/:platform/:username', { schema: { params: UserParams } }, async (request) => {
      const { platform, username } = request.params as { platform: string; username: string };
      return describe(await account(platform, username));
    });

    app.post('/comments', { schema: { body: CommentBody } }, async (request, reply) => {
      const body = request.body as Static<typeof CommentBody>;
      if (body.held === true && body.platform !== 'youtube') {
        throw new ControlError(400, 'invalid_request', 'held: only YouTube holds comments for review');
      }
      if (body.rating !== undefined && body.platform !== 'google_business') {
        throw new ControlError(400, 'invalid_request', 'rating: only Google Business Profile reviews have stars');
      }
      const owner = await account(body.platform, body.username);
      let postId = body.post_id;
      if (postId === undefined) {
        const { posts } = await listPosts(store, owner.id, { limit: 1 });
        postId = posts[0]?.id;
        if (postId === undefined) throw new ControlError(409, 'no_posts', `${body.username} has no posts`);
      }
      const post = await findPost(store, postId);
      if (!post || post.accountId !== owner.id) {
        throw new ControlError(404, 'not_found', `${body.username} has no post ${postId}`);
      }
      if (body.parent_id !== undefined) {
        const parent = await findComment(store, body.parent_id);
        if (!parent || parent.postId !== post.id) {
          throw new ControlError(404, 'not_found', `post ${post.id} has no comment ${body.parent_id}`);
        }
      }
      const ids = platformPart(store, body.platform).commentIds?.() ?? { id: numericId(), authorId: numericId() };
      const comment = await addComment(store, {
        id: ids.id,
        postId: post.id,
        parentId: body.parent_id ?? null,
        authorId: ids.authorId,
        authorUsername: body.author_username,
        text: body.text,
        ...(body.commented_at ? { createdAt: new Date(body.commented_at) } : {}),
        ...(body.held === true ? { hidden: true } : {}),
        // A Business Profile comment is a review, which always has its stars.
        ...(body.platform === 'google_business' && body.parent_id === undefined ? { rating: body.rating ?? 5 } : {}),
      });
      await notifyCommentAdded(store, comment);
      await platformPart(store, body.platform).commentChanged?.(store, comment, 'added');
      return reply.code(201).send({
        id: comment.id,
        post_id: comment.postId,
        parent_id: comment.parentId,
        author_id: comment.authorId,
        author_username: comment.authorUsername,
        text: comment.text,
        commented_at: comment.createdAt.toISOString(),
      });
    });

    app.patch('/comments/:id', { schema: { params: CommentParams, body: CommentEditBody } }, async (request) => {
      const { id } = request.params as Static<typeof CommentParams>;
      const body = request.body as Static<typeof CommentEditBody>;
      const comment = await findComment(store, id);
      const post = comment === undefined ? undefined : await findPost(store, comment.postId);
      const owner = post === undefined ? undefined : await findAccount(store, post.accountId);
      if (comment === undefined || owner === undefined) throw new ControlError(404, 'not_found', `no comment ${id}`);
      if (body.rating !== undefined && (owner.platform !== 'google_business' || comment.parentId !== null)) {
        throw new ControlError(400, 'invalid_request', 'rating: only Google Business Profile reviews have stars');
      }
      const edited = await editComment(store, comment.id, body);
      await platformPart(store, owner.platform).commentChanged?.(store, edited, 'edited');
      return {
        id: edited.id,
        post_id: edited.postId,
        text: edited.text,
        rating: edited.rating,
        updated_at: (edited.updatedAt ?? edited.createdAt).toISOString(),
      };
    });

    app.put('/insights', { schema: { body: InsightsBody } }, async (request) => {
      const body = request.body as Static<typeof InsightsBody>;
      const level = body.post_id === undefined ? 'account' : 'post';
      const known = platformPart(store, body.platform).insightMetrics?.[level] ?? [];
      if (!known.includes(body.metric)) {
        // Figures nobody can read would only hide a test's wrong name (Instagram says `saves` for
        // accounts and `saved` for media).
        throw new ControlError(
          400,
          'invalid_request',
          known.length === 0
            ? `${body.platform} has no ${level} insights`
            : `${body.platform} has no ${level} metric ${body.metric}; its ${level} metrics: ${known.join(', ')}`,
        );
      }
      const owner = await account(body.platform, body.username);
      if (body.post_id !== undefined) {
        const post = await findPost(store, body.post_id);
        if (!post || post.accountId !== owner.id) {
          throw new ControlError(404, 'not_found', `${body.username} has no post ${body.post_id}`);
        }
      }
      await setInsights(
        store,
        { accountId: owner.id, postId: body.post_id ?? '', metric: body.metric },
        // Post figures are lifetime totals: one value, whatever the day.
        body.post_id === undefined ? body.values : body.values.map(({ value }) => ({ day: LIFETIME_DAY, value })),
      );
      return { updated: body.values.length };
    });

    for (const how of ['expire', 'revoke'] as const) {
      app.post(`/tokens/${how}`, { schema: { body: UserBody } }, async (request) => {
        const body = request.body as Static<typeof UserBody>;
        return { tokens: await endTokens(store, await account(body.platform, body.username), how) };
      });
    }

    app.post('/faults', { schema: { body: FaultBody } }, async (request, reply) => {
      const body = request.body as Static<typeof FaultBody>;
      if (body.error === 'custom' && (body.status === undefined || body.body === undefined)) {
        throw new ControlError(400, 'invalid_request', 'a custom error needs status and body');
      }
      const owner = await account(body.platform, body.username);
      const fault = await addFault(store, {
        accountId: owner.id,
        trigger: body.trigger,
        error: body.error,
        ...(body.error === 'custom' ? { status: body.status, body: body.body } : {}),
        ...(body.seconds !== undefined ? { until: new Date(store.now().getTime() + body.seconds * 1000) } : {}),
      });
      return reply
        .code(201)
        .send({ id: fault.id, trigger: fault.trigger, error: fault.error, until: fault.until?.toISOString() ?? null });
    });

    app.post('/apps', { schema: { body: AppBody } }, async (request, reply) => {
      const body = request.body as Static<typeof AppBody>;
      await registerApp(store, body.platform, body.client_id, body.client_secret);
      return reply.code(201).send({ platform: body.platform, client_id: body.client_id });
    });

    app.get('/apps/:platform/:clientId', { schema: { params: AppParams } }, async (request) => {
      const { platform, clientId } = request.params as Static<typeof AppParams>;
      const found = await findApp(store, platform, clientId);
      if (found === undefined) throw new ControlError(404, 'not_found', `no ${platform} app ${clientId} is registered`);
      // What the platform saw of the app; never its secret.
      return { platform, client_id: clientId, uses: found.uses };
    });

    app.post('/testers', { schema: { body: TesterBody } }, async (request, reply) => {
      const body = request.body as Static<typeof TesterBody>;
      const tester = await account(body.platform, body.username);
      await markTester(store, body.platform, body.client_id, tester.id);
      return reply.code(201).send({ platform: body.platform, username: body.username, client_id: body.client_id });
    });

    app.post('/throttle', { schema: { body: ThrottleBody } }, async (request) => {
      const body = request.body as Static<typeof ThrottleBody>;
      const owner = await account(body.platform, body.username);
      const until = body.seconds === 0 ? null : new Date(store.now().getTime() + body.seconds * 1000);
      await setThrottle(store, owner.id, until);
      return { throttled_until: until?.toISOString() ?? null };
    });

    app.get('/activity/:platform/:username', { schema: { params: UserParams } }, async (request) => {
      const { platform, username } = request.params as { platform: string; username: string };
      const owner = await account(platform, username);
      const ids = [owner.id, ...(await pagesOf(store, owner.id)).map((p) => p.id)];
      const rows = await listActivity(store, ids);
      return {
        data: rows.map((r) => ({
          account_id: r.accountId,
          action: r.action,
          target_id: r.targetId,
          detail: r.detail,
          at: r.at.toISOString(),
        })),
      };
    });

    // The calls the imitated APIs received with the user's tokens (a Facebook page's own tokens
    // count for the page), oldest first; `since` keeps those made at or after that time.
    app.get(
      '/calls/:platform/:username',
      { schema: { params: UserParams, querystring: CallsQuery } },
      async (request) => {
        const { platform, username } = request.params as { platform: string; username: string };
        const { since } = request.query as Static<typeof CallsQuery>;
        const owner = await account(platform, username);
        const { count, kept } = store.calls.of(owner.id);
        const from = since === undefined ? null : Date.parse(since);
        const listed = from === null ? kept : kept.filter((call) => call.at.getTime() >= from);
        return {
          // Without `since`, every call since the sandbox started (or the log was reset), also
          // those no longer kept; with it, only kept calls can be looked at.
          count: from === null ? count : listed.length,
          data: listed.map((call) => ({
            method: call.method,
            path: call.path,
            query: call.query,
            at: call.at.toISOString(),
          })),
        };
      },
    );

    app.get('/calls', async () => {
      const { total, byPlatform } = store.calls.totals();
      // Every platform is named, with 0 when it had no call: a bench reads each one without a default.
      return {
        total,
        by_platform: Object.fromEntries(SANDBOX_PLATFORMS.map(({ name }) => [name, byPlatform.get(name) ?? 0])),
      };
    });

    app.delete('/calls', async (_request, reply) => {
      store.calls.reset();
      return reply.code(204).send();
    });

    function webhookPlatform(platform: string): string {
      if (!WEBHOOK_PLATFORMS.includes(platform)) {
        throw new ControlError(
          404,
          'not_found',
          `no comment webhooks on ${platform}; they exist on ${WEBHOOK_PLATFORMS.join(', ')}`,
        );
      }
      return platform;
    }

    // Declared before /webhooks/:platform so `deliveries` is never taken for a platform.
    app.get('/webhooks/deliveries', { schema: { querystring: DeliveriesQuery } }, async (request) => {
      const query = request.query as Static<typeof DeliveriesQuery>;
      const rows = await listDeliveries(store, {
        limit: query.limit ?? 20,
        ...(query.platform !== undefined ? { platform: query.platform } : {}),
      });
      return rows.map((d) => ({
        id: d.id,
        platform: d.platform,
        callback_url: d.callbackUrl,
        body: d.body,
        signature: d.signature,
        // A Pub/Sub push's token, which it carries instead of a signature.
        ...(d.authorization === null ? {} : { authorization: d.authorization }),
        status: d.status,
        attempts: d.attempts,
        sent_at: d.sentAt.toISOString(),
      }));
    });

    app.get('/webhooks', async () =>
      (await listSubscriptions(store)).map((w) => ({
        platform: w.platform,
        callback_url: w.callbackUrl,
        verify_token: w.verifyToken,
        created_at: w.createdAt.toISOString(),
      })),
    );

    app.put('/webhooks/:platform', { schema: { params: WebhookParams, body: WebhookBody } }, async (request) => {
      const platform = webhookPlatform((request.params as { platform: string }).platform);
      const body = request.body as Static<typeof WebhookBody>;
      try {
        const made = await subscribe(store, platform, {
          callbackUrl: body.callback_url,
          verifyToken: body.verify_token,
          appSecret: body.app_secret,
        });
        return {
          platform,
          callback_url: made.callbackUrl,
          verify_token: made.verifyToken,
          created_at: made.createdAt.toISOString(),
        };
      } catch (error) {
        if (error instanceof SubscriptionRefused) throw new ControlError(400, 'invalid_request', error.message);
        throw error;
      }
    });

    app.delete('/webhooks/:platform', { schema: { params: WebhookParams } }, async (request, reply) => {
      const platform = webhookPlatform((request.params as { platform: string }).platform);
      if (!(await unsubscribe(store, platform))) {
        throw new ControlError(404, 'not_found', `no webhook subscription on ${platform}`);
      }
      return reply.code(204).send();
    });

    // Cloud Pub/Sub push subscriptions (Google Business Profile's review notifications go out through them).
    app.put('/pubsub/subscriptions', { schema: { body: PushSubscriptionBody } }, async (request) => {
      const body = request.body as Static<typeof PushSubscriptionBody>;
      return renderPushSubscription(
        await subscribePush(store, {
          name: body.name,
          topic: body.topic,
          pushEndpoint: body.push_endpoint,
          serviceAccountEmail: body.service_account_email,
          audience: body.audience ?? body.push_endpoint,
        }),
      );
    });

    app.get('/pubsub/subscriptions', async () => (await listPushSubscriptions(store)).map(renderPushSubscription));

    app.delete('/pubsub/subscriptions', { schema: { querystring: PushSubscriptionQuery } }, async (request, reply) => {
      const { name } = request.query as Static<typeof PushSubscriptionQuery>;
      if (!(await deletePushSubscription(store, name))) {
        throw new ControlError(404, 'not_found', `no push subscription ${name}`);
      }
      return reply.code(204).send();
    });

    // A Google project's YouTube Data API units today (the sandbox's clock): read, or set as
    // other uses of the project would have spent them.
    app.get('/youtube/quota/:project', async (request) => {
      const { project } = request.params as { project: string };
      const { day, units } = await unitsUsed(store, project);
      return { project, day, used_units: units, daily_units: await getSetting(store, DAILY_QUOTA_UNITS) };
    });

    app.put('/youtube/quota/:project', { schema: { body: QuotaBody } }, async (request) => {
      const { project } = request.params as { project: string };
      await setUnitsUsed(store, project, (request.body as Static<typeof QuotaBody>).used_units);
      const { day, units } = await unitsUsed(store, project);
      return { project, day, used_units: units, daily_units: await getSetting(store, DAILY_QUOTA_UNITS) };
    });

    app.put('/settings/:name', { schema: { params: SettingParams } }, async (request) => {
      const { name } = request.params as { name: string };
      const value = (request.body as { value?: unknown } | undefined)?.value;
      const setting = SETTINGS.get(name);
      if (setting === undefined) throw new ControlError(404, 'not_found', `no setting ${name}`);
      const accepted = setting.read(value);
      if (accepted === null) throw new ControlError(400, 'invalid_request', `${name} takes ${setting.takes}`);
      await setSetting(store, setting, accepted);
      return { name, value: accepted };
    });
  };
}
