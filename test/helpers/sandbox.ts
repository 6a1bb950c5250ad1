import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import type { Database } from '../../src/db/connection.ts';
import {
  type AccountCredentials,
  type CommentsCapability,
  createPlatforms,
  type PageGrant,
  type Platform,
  type PlatformAdapter,
  PlatformError,
  type PlatformSet,
  type ReplyOutcome,
} from '../../src/platforms/index.ts';

export { commentsOf, insightsOf } from '../../src/platforms/index.ts';

import { type PermissionChoice, permissionForm } from '../../src/sandbox/permission-form.ts';
import { buildSandboxApp } from '../../src/sandbox/server.ts';
import { createTestDatabase } from './database.ts';

export const REDIRECT_URI = 'https://app.example.test/callback';

/** What a user does on a sandbox permission page. */
export type DialogChoice = PermissionChoice;

export interface TestSandbox {
  /** `http://127.0.0.1:N/sandbox` */
  url: string;
  database: Database;
  /** The adapters, pointed at this sandbox (the service's own address, where a platform reads its documents, is the sandbox's too). */
  platforms: PlatformSet;
  adapter(platform: Platform): PlatformAdapter;
  /** A JSON call to the control API; answers status and body. */
  control(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    // biome-ignore lint/suspicious/noExplicitAny: tests read the control API's JSON answers field by field.
  ): Promise<{ status: number; body: any }>;
  /**
   * Walks the platform's permission page as a browser form would (GET the dialog, POST the
   * decision) and answers the redirect's query parameters.
   */
  authorize(platform: Platform, options: DialogChoice & { state?: string }): Promise<URLSearchParams>;
  /** Walks the permission page at `dialogUrl` (from any app's authorize redirect); answers where it redirects. */
  decide(dialogUrl: string, options: DialogChoice): Promise<URL>;
  /**
   * A call straight to an imitated host (`/graph.instagram.com/v25.0/me`): parameters in
   * the query for GET, as a form for POST. For checking raw answers against docs/platforms.md.
   */
  raw(
    method: 'GET' | 'POST',
    path: string,
    params?: Record<string, string | number>,
    // biome-ignore lint/suspicious/noExplicitAny: tests read the platforms' raw JSON field by field.
  ): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  /**
   * The platform calls made with the user's tokens (`GET /_control/calls/...`): every one
   * counted, and the kept ones oldest first, their query without the token.
   */
  calls(platform: Platform, username: string, since?: Date): Promise<SandboxCalls>;
  /**
   * The calls made after `mark`, a `count` that `calls` answered earlier, oldest first. For a test
   * that asserts which calls came after a point: a time taken then can fall in the millisecond of
   * the call just answered, which the log's `since` would then count.
   */
  callsAfter(platform: Platform, username: string, mark: number): Promise<SandboxCalls['data']>;
  /**
   * Holds the next request whose path (after the sandbox's mount, host first) matches, before
   * the sandbox reads it: `arrived` resolves when it comes, and it goes on once `release` is
   * called. For a test that needs a platform call in flight at a chosen moment. `afterBody`:
   * held once its body is read instead, so it is carried out when released even if its caller
   * gave up waiting meanwhile (an answer lost).
   */
  hold(path: RegExp, options?: { afterBody?: boolean }): HeldRequest;
  /**
   * Every request the sandbox received so far, its method and URL after the sandbox's mount
   * (`GET /graph.facebook.com/v27.0/me?fields=id`), secrets included: what an adapter sent.
   */
  requests(): string[];
  /** What an adapter call needs for a user just connected (every scope unless `granted`). */
  credentials(platform: Platform, username: string, granted?: string[]): Promise<AccountCredentials>;
  /** Authorizes with every scope and exchanges the code: a connected user's tokens. */
  connect(platform: Platform, username: string, granted?: string[]): ReturnType<PlatformAdapter['exchangeCode']>;
  close(): Promise<void>;
}

export interface HeldRequest {
  arrived: Promise<void>;
  release(): void;
}

/** What the sandbox's call log says of one user (docs/sandbox.md, "The call log"). */
export interface SandboxCalls {
  count: number;
  data: { method: string; path: string; query: Record<string, string>; at: string }[];
}

/** The sandbox platforms on a real HTTP server of their own, with adapters pointed at it. */
export async function startSandbox(): Promise<TestSandbox> {
  const database = await createTestDatabase();
  const app = await buildSandboxApp({ db: database.db });
  const holds: { path: RegExp; afterBody: boolean; arrive(): void; released: Promise<void> }[] = [];
  const received: string[] = [];
  const held = async (url: string, afterBody: boolean) => {
    const path = url.replace(/^\/sandbox/, '').split('?')[0] ?? '';
    const index = holds.findIndex((hold) => hold.afterBody === afterBody && hold.path.test(path));
    if (index === -1) return;
    const [hold] = holds.splice(index, 1);
    hold?.arrive();
    await hold?.released;
  };
  app.addHook('onRequest', async (request) => {
    received.push(`${request.method} ${request.url.replace(/^\/sandbox/, '')}`);
    await held(request.url, false);
  });
  app.addHook('preHandler', async (request) => {
    await held(request.url, true);
  });
  // The service's documents a platform reads at its address (Bluesky's client metadata), served
  // here in the service's place, for REDIRECT_URI.
  let platforms: PlatformSet | undefined;
  app.get<{ Params: { platform: Platform } }>(
    '/_service/oauth/:platform/client-metadata.json',
    async (request, reply) => {
      const document = platforms?.adapter(request.params.platform).clientMetadata?.(REDIRECT_URI);
      return document === undefined ? reply.code(404).send() : document;
    },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/sandbox`;
  const dispatcher = new Agent();
  platforms = createPlatforms(
    { platforms: 'sandbox', platformCredentials: {}, sandboxUrl: url, serviceUrl: `http://127.0.0.1:${port}/_service` },
    { dispatcher },
  );

  const sandbox: TestSandbox = {
    url,
    database,
    platforms,
    adapter: (platform) => platforms.adapter(platform),
    async control(method, path, body) {
      const response = await request(`${url}/_control${path}`, {
        method,
        dispatcher,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.body.text();
      return { status: response.statusCode, body: text === '' ? undefined : JSON.parse(text) };
    },
    async authorize(platform, options) {
      const adapter = platforms.adapter(platform);
      const trip = { redirectUri: REDIRECT_URI, state: options.state ?? 'st-1' };
      let dialogUrl: string;
      if (adapter.pushAuthorization === undefined) {
        dialogUrl = adapter.authorizeUrl(trip);
      } else {
        // A pushed request (Bluesky): its page sends the browser to the dialog of that request.
        const pageUrl = await adapter.pushAuthorization({ ...trip, loginHint: options.username });
        const page = await request(pageUrl, { dispatcher });
        await page.body.text();
        dialogUrl = new URL(String(page.headers.location), pageUrl).toString();
      }
      const redirect = await sandbox.decide(dialogUrl, options);
      if (!redirect.toString().startsWith(REDIRECT_URI)) throw new Error(`redirected elsewhere: ${redirect}`);
      return redirect.searchParams;
    },
    async decide(dialogUrl, options) {
      const page = await request(dialogUrl, { dispatcher });
      if (page.statusCode !== 200) throw new Error(`dialog answered ${page.statusCode}: ${await page.body.text()}`);
      const form = permissionForm(await page.body.text(), dialogUrl, options);
      if (form === null) throw new Error('no form on the dialog');
      const decision = await request(form.action, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.body.toString(),
      });
      await decision.body.text();
      const location = decision.headers.location;
      if (decision.statusCode !== 303 || typeof location !== 'string') {
        throw new Error(`the decision answered ${decision.statusCode} without a redirect`);
      }
      return new URL(location);
    },
    async connect(platform, username, granted) {
      const params = await sandbox.authorize(platform, { username, ...(granted ? { granted } : {}) });
      const code = params.get('code');
      if (code === null) throw new Error(`no code in the redirect: ${params}`);
      return platforms
        .adapter(platform)
        .exchangeCode(code, REDIRECT_URI, params.get('state') ?? undefined, params.get('iss') ?? undefined);
    },
    async raw(method, path, params = {}) {
      const target = new URL(`${url}${path}`);
      const form = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
      if (method === 'GET') target.search = form.toString();
      const response = await request(target, {
        method,
        dispatcher,
        ...(method === 'POST'
          ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() }
          : {}),
      });
      const text = await response.body.text();
      return {
        status: response.statusCode,
        headers: response.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
    },
    async calls(platform, username, since) {
      const query = since === undefined ? '' : `?since=${encodeURIComponent(since.toISOString())}`;
      const answer = await sandbox.control('GET', `/calls/${platform}/${encodeURIComponent(username)}${query}`);
      if (answer.status !== 200)
        throw new Error(`the call log answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body as SandboxCalls;
    },
    async callsAfter(platform, username, mark) {
      const { count, data } = await sandbox.calls(platform, username);
      const made = count - mark;
      if (made > data.length)
        throw new Error(`${made} calls since the mark, more than the ${data.length} the log keeps`);
      return made <= 0 ? [] : data.slice(data.length - made);
    },
    hold(path, options = {}) {
      let arrive = () => {};
      let release = () => {};
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ path, afterBody: options.afterBody === true, arrive, released });
      return { arrived, release };
    },
    requests: () => [...received],
    async credentials(platform, username, granted) {
      const tokens = await sandbox.connect(platform, username, granted);
      return { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken };
    },
    async close() {
      await app.close();
      await dispatcher.close();
      await database.close();
    },
  };
  return sandbox;
}

/** The PlatformError a promise rejects with (fails the test when it resolves or throws something else). */
export async function platformError(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error('expected a PlatformError, but the call succeeded');
}

/**
 * The adapter's pages call (fails the test where the platform grants no pages), for a login that
 * granted `granted` (none unless named: LinkedIn then offers the organizations alone).
 */
export function pagesOf(
  adapter: PlatformAdapter,
): (credentials: AccountCredentials, granted?: readonly string[]) => Promise<PageGrant[]> {
  const { pages } = adapter;
  if (pages === undefined) throw new Error(`${adapter.platform} grants no pages`);
  return (credentials, granted = []) => pages(credentials, granted);
}

/** The adapter's finishReply (fails the test where the platform sends replies at once). */
export function finishReplyOf(adapter: PlatformAdapter): NonNullable<CommentsCapability['finishReply']> {
  const finish = adapter.comments?.finishReply;
  if (finish === undefined) throw new Error(`${adapter.platform} sends replies at once`);
  return finish;
}

/** The reply a sent outcome names (fails the test when the reply was left pending). */
export async function sent(outcome: Promise<ReplyOutcome>): Promise<{ id: string }> {
  const answer = await outcome;
  if (answer.state !== 'sent') throw new Error(`the reply was left pending (container ${answer.containerId})`);
  return { id: answer.id };
}

/**
 * Makes the sandbox's containers ready a second after they are made (`container_processing_seconds`),
 * for tests that publish through a worker on the real clock: the service reads a container first 2 s
 * after making it, and Instagram's and Threads' next read only a minute later, as they ask, which
 * the sandbox's default 5 s of processing would make every publication wait for.
 */
export async function readyContainersQuickly(sandbox: Pick<TestSandbox, 'control'>): Promise<void> {
  const res = await sandbox.control('PUT', '/settings/container_processing_seconds', { value: 1 });
  if (res.status !== 200) throw new Error(`container_processing_seconds: ${JSON.stringify(res.body)}`);
}
