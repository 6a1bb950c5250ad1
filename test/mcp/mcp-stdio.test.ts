import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/free-port.ts';
import { CLI, cleanupDataDirs, makeDataDir, runCli } from '../helpers/process.ts';
import { readyContainersQuickly, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount } from '../helpers/sandbox-accounts.ts';

/**
 * `switchboard mcp`: the MCP server over stdio as an MCP client starts it (a real process of
 * `node bin/switchboard.js mcp`), driven by the SDK's own client, speaking to a running
 * service over HTTP (docs/mcp.md).
 */

let sandbox: TestSandbox;
let t: TestApp;
let owner: TestOwner;

beforeAll(async () => {
  sandbox = await startSandbox();
  await readyContainersQuickly(sandbox);
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, undefined, {
    platforms: sandbox.platforms,
    listen: true,
  });
  owner = await t.createOwner();
  await t.startWorker({ platforms: sandbox.platforms });
});
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t.close();
  await sandbox.close();
  await cleanupDataDirs();
});

/** `switchboard mcp` started by the SDK's stdio client with these settings. */
async function start(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'switchboard-tests', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read the tools' JSON answers field by field.
function json(result: CallToolResult): any {
  const parts = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
  return JSON.parse(parts[parts.length - 1] as string);
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

let users = 0;
async function connected(profileId: string) {
  users += 1;
  return await connectSandboxAccount(t, sandbox, owner, 'threads', `mcp_stdio_${users}`, { profileId });
}

async function createProfile(name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(owner.key), payload: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

describe('switchboard mcp (stdio)', () => {
  it('lists the tools and publishes a post in the sandbox through create_post', async () => {
    const account = await connected(owner.defaultProfileId);
    const client = await start({ SWITCHBOARD_URL: t.url as string, SWITCHBOARD_API_KEY: owner.key });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['create_post', 'get_post', 'list_comments', 'reply_to_comment', 'send_test_webhook']),
    );
    expect(tools).toHaveLength(27);

    const created = await call(client, 'create_post', { account_ids: [account.id], text: 'From the command line' });
    expect(created.isError ?? false).toBe(false);
    const post = await eventually(async () => {
      const got = json(await call(client, 'get_post', { post_id: json(created).id }));
      return got.status === 'published' ? got : undefined;
    });
    const activity = await sandbox.control('GET', `/activity/threads/${account.username}`);
    const published = (activity.body.data as { action: string; target_id: string }[]).filter(
      (a) => a.action === 'publish',
    );
    expect(published.map((a) => a.target_id)).toEqual([post.targets[0].platform_post_id]);
  });

  it("keeps a profile key's agent, and an owner key bound by SWITCHBOARD_PROFILE, inside one profile", async () => {
    const mine = await createProfile('Stdio own');
    const other = await createProfile('Stdio other');
    const own = await connected(mine);
    const foreign = await connected(other);
    const foreignDraft = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: { account_ids: [foreign.id], text: 'Not yours', draft: true },
    });
    expect(foreignDraft.statusCode).toBe(201);

    const profileKey = await t.createProfileKey(owner.ownerId, mine);
    for (const env of <Record<string, string>[]>[
      { SWITCHBOARD_API_KEY: profileKey },
      { SWITCHBOARD_API_KEY: owner.key, SWITCHBOARD_PROFILE: mine },
    ]) {
      const client = await start({ SWITCHBOARD_URL: t.url as string, ...env });
      const { tools } = await client.listTools();
      for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain('profile');
      const accounts = json(await call(client, 'list_accounts'));
      expect(accounts.data.map((a: { id: string }) => a.id)).toEqual([own.id]);
      const read = await call(client, 'get_post', { post_id: foreignDraft.json().id });
      expect(read.isError).toBe(true);
      expect(json(read)).toMatchObject({ status: 404, error: { code: 'post_not_found' } });
    }
  });

  it('says what is wrong, on stderr with exit code 1, without a key or a reachable service', async () => {
    const dataDir = await makeDataDir();
    const noKey = await runCli(['mcp'], {
      DATA_DIR: dataDir,
      SWITCHBOARD_URL: t.url as string,
      SWITCHBOARD_API_KEY: '',
    });
    expect(noKey.code).toBe(1);
    expect(noKey.stdout).toBe('');
    expect(noKey.stderr).toContain('set SWITCHBOARD_API_KEY to an owner or profile API key');

    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await runCli(['mcp'], {
      DATA_DIR: dataDir,
      SWITCHBOARD_URL: nowhere,
      SWITCHBOARD_API_KEY: owner.key,
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe('');
    expect(unreachable.stderr).toContain(`mcp: could not reach the service at ${nowhere}`);

    // Something else answers at that URL: a web page, or a JSON document without the API's operations.
    const other = http.createServer((request, response) => {
      if (request.url === '/openapi.json' && request.headers.host?.startsWith('127.0.0.1')) {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome to nginx</html>');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"openapi":"3.1.0","paths":{}}');
      }
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as AddressInfo).port;
    try {
      const page = await runCli(['mcp'], {
        DATA_DIR: dataDir,
        SWITCHBOARD_URL: `http://127.0.0.1:${port}`,
        SWITCHBOARD_API_KEY: owner.key,
      });
      expect(page.code).toBe(1);
      expect(page.stderr).toContain(`mcp: http://127.0.0.1:${port}/openapi.json did not answer JSON`);
      expect(page.stderr).not.toContain('    at ');
      const older = await runCli(['mcp'], {
        DATA_DIR: dataDir,
        SWITCHBOARD_URL: `http://localhost:${port}`,
        SWITCHBOARD_API_KEY: owner.key,
      });
      expect(older.code).toBe(1);
      expect(older.stderr).toContain(
        'lacks what the tools need (the OpenAPI document has no operation GET /v1/profiles)',
      );
      expect(older.stderr).not.toContain('    at ');
    } finally {
      other.close();
    }

    const notHttp = await runCli(['mcp'], {
      DATA_DIR: dataDir,
      SWITCHBOARD_URL: 'ftp://example.test',
      SWITCHBOARD_API_KEY: owner.key,
    });
    expect(notHttp.code).toBe(1);
    expect(notHttp.stderr).toContain("SWITCHBOARD_URL must be the service's http(s) base URL");
  });
});
