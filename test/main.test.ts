import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteKey } from '../src/modules/api-keys/service.ts';
import { createTestDatabase } from './helpers/database.ts';
import {
  allFiles,
  cleanupDataDirs,
  fileExists,
  makeDataDir,
  pollUntil,
  postmasterLines,
  postmasterPid,
  postmasterPidFile,
  processRunning,
  runCli,
  startCli,
  stopAllCli,
  waitForBanner,
  withEmbeddedClient,
} from './helpers/process.ts';

/**
 * The `switchboard` CLI as users run it: real processes (`node bin/switchboard.js ...`),
 * each test on a temporary DATA_DIR of its own, with the embedded PostgreSQL shared
 * between the processes on one DATA_DIR.
 */

afterEach(async () => {
  await stopAllCli();
  await cleanupDataDirs();
});

interface ProfileBody {
  id: string;
  name: string;
  external_id: string | null;
  is_default: boolean;
}
interface Page<T> {
  data: T[];
  next_cursor: string | null;
}
interface ErrorBody {
  error: { code: string; message: string };
}
interface CreatedKeyBody {
  id: string;
  profile_id: string;
  key: string;
}

interface Response<T> {
  status: number;
  body: T;
}

/** One HTTP request to a spawned server; the body parsed as JSON when it is JSON. */
async function call<T = unknown>(
  base: string,
  method: string,
  url: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${url}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('application/json');
  return { status: res.status, body: (json && text ? JSON.parse(text) : text) as T };
}

/** The system user running these commands, as the audit log names the operator (a uid without a name: `uid N`). */
function systemUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.()}`;
  }
}

async function listProfiles(base: string, key: string): Promise<Response<Page<ProfileBody>>> {
  return await call<Page<ProfileBody>>(base, 'GET', '/v1/profiles', { key });
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The files under `dir` whose bytes contain `needle`, and how many files were read. */
async function filesContaining(dir: string, needle: string): Promise<{ hits: string[]; read: number }> {
  const bytes = Buffer.from(needle, 'utf8');
  const files = await allFiles(dir);
  const hits: string[] = [];
  for (const file of files) {
    if ((await fs.readFile(file)).includes(bytes)) hits.push(path.relative(dir, file));
  }
  return { hits, read: files.length };
}

const embeddedRunning = (dataDir: string) => fileExists(postmasterPidFile(dataDir));

describe('switchboard --help', () => {
  it('lists the commands, and the options of owners create', async () => {
    const dataDir = path.join(await makeDataDir(), 'untouched');
    const [help, ownersCreate] = await Promise.all([
      runCli(['--help'], { DATA_DIR: dataDir }),
      runCli(['owners', 'create', '--help'], { DATA_DIR: dataDir }),
    ]);
    expect(help.code, help.stderr).toBe(0);
    for (const command of ['serve', 'api', 'worker', 'migrate', 'owners', 'keys', 'sandbox']) {
      expect(help.stdout).toMatch(new RegExp(`^ +${command}\\b`, 'm'));
    }
    expect(ownersCreate.code, ownersCreate.stderr).toBe(0);
    for (const option of ['--name <name>', '--email <email>', '--account-limit <n>', '--json']) {
      expect(ownersCreate.stdout).toContain(option);
    }
    // Help touches no data.
    expect(await fileExists(dataDir)).toBe(false);
  }, 60_000);
});

describe('serve on an empty DATA_DIR', () => {
  it('prints the URLs and a working owner key once, and stores the key only as a hash', async () => {
    const dataDir = await makeDataDir();
    const serve = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    const { base, ownerKey } = await waitForBanner(serve);

    expect(serve.stdout).toMatch(new RegExp(`^ +API docs: +${base}/docs$`, 'm'));
    expect(serve.stdout).toMatch(new RegExp(`^ +Health check: +${base}/healthz\\b`, 'm'));
    expect(ownerKey).toMatch(/^sb_owner_[A-Za-z0-9_-]{43}$/);
    const key = ownerKey as string;
    // On a line of its own exactly once (the Try line repeats it inside a command).
    expect(serve.stdout.split('\n').filter((line) => line.trim() === key)).toHaveLength(1);

    const healthz = await call(base, 'GET', '/healthz');
    expect(healthz).toEqual({ status: 200, body: { status: 'ok' } });
    const readyz = await call(base, 'GET', '/readyz');
    expect(readyz).toEqual({ status: 200, body: { status: 'ready' } });
    const docs = await call<string>(base, 'GET', '/docs');
    expect(docs.status).toBe(200);
    expect(docs.body).toContain('<html');

    // Without platform credentials the adapters use the sandbox, mounted on the service.
    expect(serve.stdout).toMatch(
      new RegExp(`^ +Platforms: +sandbox at ${base}/sandbox \\(controls: ${base}/sandbox/_control`, 'm'),
    );
    const dialog = await call<string>(
      base,
      'GET',
      '/sandbox/www.instagram.com/oauth/authorize?client_id=app&redirect_uri=https%3A%2F%2Fapp.example.test%2Fcb&scope=instagram_business_basic&response_type=code&state=s',
    );
    expect(dialog.status).toBe(200);
    expect(dialog.body).toContain('<button type="submit" name="decision" value="allow">Allow</button>');
    // The start subscribed the service to the sandbox's comment webhooks, handshake and all.
    const subscriptions = await call<Array<{ platform: string; callback_url: string }>>(
      base,
      'GET',
      '/sandbox/_control/webhooks',
    );
    expect(subscriptions.body.map((w) => [w.platform, w.callback_url])).toEqual([
      ['facebook', `${base}/platform-webhooks/facebook`],
      ['instagram', `${base}/platform-webhooks/instagram`],
      ['threads', `${base}/platform-webhooks/threads`],
    ]);

    const profiles = await listProfiles(base, key);
    expect(profiles.status).toBe(200);
    expect(profiles.body.data).toEqual([
      expect.objectContaining({ name: 'Default', is_default: true, external_id: null }),
    ]);
    expect((await call<ErrorBody>(base, 'GET', '/v1/profiles')).status).toBe(401);

    // A connect link made through the API opens its page, which sends the client to the
    // sandbox's permission page with a callback on this service.
    expect(serve.stdout).toMatch(new RegExp(`^ +Connect pages: +${base}/connect/<token>`, 'm'));
    await call(base, 'POST', '/v1/connect/redirect-origins', { key, body: { origin: 'http://localhost:3000' } });
    const link = await call<{ url: string }>(base, 'POST', `/v1/profiles/${profiles.body.data[0]?.id}/connect-links`, {
      key,
      body: { redirect_url: 'http://localhost:3000/back' },
    });
    expect(link.status).toBe(201);
    expect(link.body.url.startsWith(`${base}/connect/`)).toBe(true);
    const page = await call<string>(base, 'GET', link.body.url.slice(base.length));
    expect(page.status).toBe(200);
    const start = await fetch(`${link.body.url}/start/instagram`, { redirect: 'manual' });
    const dialogUrl = new URL(String(start.headers.get('location')));
    expect(dialogUrl.href.startsWith(`${base}/sandbox/www.instagram.com/oauth/authorize`)).toBe(true);
    expect(dialogUrl.searchParams.get('redirect_uri')).toBe(`${base}/connect/callback/instagram`);

    // Nothing under DATA_DIR holds the key in clear, PostgreSQL's files included. The
    // hash of it is there (in the WAL, flushed at commit): proof the search reads them.
    const clear = await filesContaining(dataDir, key);
    expect(clear.read).toBeGreaterThan(100);
    expect(clear.hits).toEqual([]);
    expect((await filesContaining(dataDir, sha256(key))).hits.length).toBeGreaterThan(0);
  }, 60_000);

  it('exits 0 on SIGTERM and stops the embedded PostgreSQL', async () => {
    const dataDir = await makeDataDir();
    const serve = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    const { ownerKey } = await waitForBanner(serve);
    const postgres = await postmasterPid(dataDir);
    expect(postgres).toBeDefined();
    expect(await processRunning(postgres as number)).toBe(true);

    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(serve.stderr).toBe('');
    expect(await embeddedRunning(dataDir)).toBe(false);
    expect(await processRunning(postgres as number)).toBe(false);

    // After the shutdown checkpoint every table is on disk: still no key in clear.
    const clear = await filesContaining(dataDir, ownerKey as string);
    expect(clear.hits).toEqual([]);
  }, 60_000);
});

describe('serve on a DATA_DIR used before', () => {
  it('keeps every row and the old key, and prints no new owner key', async () => {
    const dataDir = await makeDataDir();
    const first = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    const one = await waitForBanner(first);
    const key = one.ownerKey as string;
    const [defaultProfile] = (await listProfiles(one.base, key)).body.data;
    const kept = await call<ProfileBody>(one.base, 'POST', '/v1/profiles', {
      key,
      body: { name: 'Kept', external_id: 'kept-1' },
    });
    expect(kept.status).toBe(201);
    expect(await first.stop()).toEqual({ code: 0, signal: null });
    expect(await embeddedRunning(dataDir)).toBe(false);

    const second = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    const two = await waitForBanner(second);
    expect(two.ownerKey).toBeUndefined();
    expect(second.stdout).not.toContain('First start');
    expect(second.stdout).not.toContain('sb_owner_');

    const profiles = await listProfiles(two.base, key);
    expect(profiles.status).toBe(200);
    expect(profiles.body.data).toEqual([
      expect.objectContaining({ id: defaultProfile?.id, is_default: true }),
      expect.objectContaining({ id: kept.body.id, name: 'Kept', external_id: 'kept-1', is_default: false }),
    ]);
    // The external_id still makes creating it again a no-op.
    const again = await call<ProfileBody>(two.base, 'POST', '/v1/profiles', {
      key,
      body: { name: 'Kept', external_id: 'kept-1' },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(kept.body.id);

    expect(await second.stop()).toEqual({ code: 0, signal: null });
    expect(await embeddedRunning(dataDir)).toBe(false);
  }, 90_000);
});

describe('one-shot commands on the DATA_DIR of a running server', () => {
  it('owners create and keys create print keys the running server accepts', async () => {
    const dataDir = await makeDataDir();
    const serve = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    const { base, ownerKey } = await waitForBanner(serve);
    const firstDefault = (await listProfiles(base, ownerKey as string)).body.data[0];

    const owner = await runCli(
      ['owners', 'create', '--name', 'Agency N', '--email', 'n@example.test', '--account-limit', '3', '--json'],
      { DATA_DIR: dataDir },
    );
    expect(owner.code, owner.stderr).toBe(0);
    const ownerLines = owner.stdout.split('\n').filter((line) => line !== '');
    expect(ownerLines).toHaveLength(1);
    const created = JSON.parse(ownerLines[0] as string) as { owner_id: string; api_key: string };
    expect(Object.keys(created).sort()).toEqual(['api_key', 'owner_id']);
    expect(created.owner_id).toMatch(/^own_/);
    expect(created.api_key).toMatch(/^sb_owner_/);
    expect(created.api_key).not.toBe(ownerKey);

    // The server works on after the one-shot process left the shared database.
    const mine = await listProfiles(base, created.api_key);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toHaveLength(1);
    const newDefault = mine.body.data[0] as ProfileBody;
    expect(newDefault).toMatchObject({ name: 'Default', is_default: true });
    expect(newDefault.id).not.toBe(firstDefault?.id);

    const stored = await withEmbeddedClient(dataDir, async (client) => {
      const { rows } = await client.query('select name, email, account_limit from owners where id = $1', [
        created.owner_id,
      ]);
      return rows;
    });
    expect(stored).toEqual([{ name: 'Agency N', email: 'n@example.test', account_limit: 3 }]);

    const key = await runCli(['keys', 'create', '--profile', newDefault.id, '--owner', created.owner_id, '--json'], {
      DATA_DIR: dataDir,
    });
    expect(key.code, key.stderr).toBe(0);
    const keyLines = key.stdout.split('\n').filter((line) => line !== '');
    expect(keyLines).toHaveLength(1);
    const profileKey = JSON.parse(keyLines[0] as string) as { key_id: string; profile_id: string; api_key: string };
    expect(profileKey).toEqual({
      key_id: expect.stringMatching(/^key_/),
      profile_id: newDefault.id,
      api_key: expect.stringMatching(/^sb_profile_/),
    });
    // 403 owner_key_required: the key authenticated, as a profile key. An unknown key: 401.
    const asProfile = await call<ErrorBody>(base, 'GET', '/v1/profiles', { key: profileKey.api_key });
    expect(asProfile.status).toBe(403);
    expect(asProfile.body.error.code).toBe('owner_key_required');
    const unknown = await call<ErrorBody>(base, 'GET', '/v1/profiles', { key: `sb_profile_${'x'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('unauthorized');

    const [noProfile, noOwner] = await Promise.all([
      runCli(['keys', 'create', '--profile', 'prf_01jzzzzzzzzzzzzzzzzzzzzzzz', '--owner', created.owner_id], {
        DATA_DIR: dataDir,
      }),
      runCli(['keys', 'create', '--profile', newDefault.id, '--owner', 'own_01jzzzzzzzzzzzzzzzzzzzzzzz'], {
        DATA_DIR: dataDir,
      }),
    ]);
    expect(noProfile.code).toBe(1);
    expect(noProfile.stdout).toBe('');
    expect(noProfile.stderr).toBe(
      `switchboard: owner ${created.owner_id} has no profile prf_01jzzzzzzzzzzzzzzzzzzzzzzz\n`,
    );
    expect(noOwner.code).toBe(1);
    expect(noOwner.stdout).toBe('');
    expect(noOwner.stderr).toBe('switchboard: no owner own_01jzzzzzzzzzzzzzzzzzzzzzzz\n');

    // The new owner's audit log: the operator made it and its profile key; the refused commands made nothing.
    const audit = await call<Page<Record<string, unknown>>>(base, 'GET', '/v1/audit-log', { key: created.api_key });
    expect(audit.body.data).toMatchObject([
      { operation: 'switchboard keys create', object_id: profileKey.key_id, profile_id: newDefault.id, via: 'cli' },
      { operation: 'switchboard owners create', object_id: created.owner_id, profile_id: null, via: 'cli' },
    ]);
    expect(audit.body.data).toHaveLength(2);

    expect((await call(base, 'GET', '/readyz')).status).toBe(200);
    expect(await serve.stop()).toEqual({ code: 0, signal: null });
    expect(await embeddedRunning(dataDir)).toBe(false);
  }, 90_000);

  it("logs no hosted page's token: its request lines show the path without it", async () => {
    const dataDir = await makeDataDir();
    const serve = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
    const { base } = await waitForBanner(serve);
    const token = 'Zq9vK2mTtokenNotForLogs';
    expect((await call(base, 'GET', `/approve/${token}`)).status).toBe(404);
    expect((await call(base, 'GET', `/connect/${token}`)).status).toBe(404);
    await call(base, 'GET', '/connect/callback/threads?code=c0deNotForLogs&state=st4teNotForLogs');
    expect(await serve.stop()).toEqual({ code: 0, signal: null });
    const lines = serve.stdout.split('\n').filter((line) => line.includes('incoming request'));
    expect(lines.map((line) => JSON.parse(line).req.url)).toEqual(
      expect.arrayContaining(['/approve/<token>', '/connect/<token>', '/connect/callback/threads?<redacted>']),
    );
    expect(serve.stdout).not.toContain(token);
    expect(serve.stdout).not.toContain('NotForLogs');
  }, 90_000);

  it('keys create without --profile makes an owner key; keys list and keys delete manage keys at once', async () => {
    const dataDir = await makeDataDir();
    const serve = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    const { base, ownerKey } = await waitForBanner(serve);
    const owners = await runCli(['owners', 'list', '--json'], { DATA_DIR: dataDir });
    expect(owners.code, owners.stderr).toBe(0);
    const ownerRows = owners.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { owner_id: string; name: string; email: string });
    expect(ownerRows).toEqual([expect.objectContaining({ name: 'Owner', email: 'owner@localhost' })]);
    const ownerId = ownerRows[0]?.owner_id as string;
    // The banner of the first start names the owner, so its key can be replaced without SQL.
    expect(serve.stdout).toContain(`an owner was created (${ownerId})`);

    const created = await runCli(['keys', 'create', '--owner', ownerId, '--name', 'second key', '--json'], {
      DATA_DIR: dataDir,
    });
    expect(created.code, created.stderr).toBe(0);
    const second = JSON.parse(created.stdout) as { key_id: string; profile_id: string | null; api_key: string };
    expect(second).toMatchObject({ profile_id: null, api_key: expect.stringMatching(/^sb_owner_/) });
    expect((await listProfiles(base, second.api_key)).status).toBe(200);

    const listed = await runCli(['keys', 'list', '--owner', ownerId, '--json'], { DATA_DIR: dataDir });
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { key_id: string; profile_id: string | null; name: string | null });
    expect(rows.map((r) => r.key_id)).toContain(second.key_id);
    expect(rows.find((r) => r.key_id === second.key_id)?.name).toBe('second key');
    expect(listed.stdout).not.toContain(second.api_key);
    expect(listed.stdout).not.toContain(ownerKey as string);

    const deleted = await runCli(['keys', 'delete', '--owner', ownerId, '--key', second.key_id], { DATA_DIR: dataDir });
    expect(deleted.code, deleted.stderr).toBe(0);
    // Deleted in another process: the server's cache forgets it through NOTIFY.
    expect(await pollUntil(async () => (await listProfiles(base, second.api_key)).status === 401, 5_000)).toBe(true);
    expect((await listProfiles(base, ownerKey as string)).status).toBe(200);
    const again = await runCli(['keys', 'delete', '--owner', ownerId, '--key', second.key_id], { DATA_DIR: dataDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`switchboard: owner ${ownerId} has no key ${second.key_id}\n`);

    // The audit log names the operator (the system user who ran the commands) and each command.
    const audit = await call<Page<Record<string, unknown>>>(base, 'GET', `/v1/audit-log?object_id=${second.key_id}`, {
      key: ownerKey as string,
    });
    expect(audit.status).toBe(200);
    const operator = { type: 'operator', id: systemUser(), name: null };
    expect(audit.body.data).toMatchObject([
      { actor: operator, via: 'cli', operation: 'switchboard keys delete', object_id: second.key_id, status: 0 },
      { actor: operator, via: 'cli', operation: 'switchboard keys create', object_id: second.key_id, ip: null },
    ]);

    const badEmail = await runCli(['owners', 'create', '--name', 'X', '--email', 'not an address'], {
      DATA_DIR: dataDir,
    });
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toContain('--email');
    expect(badEmail.stderr).toContain('must be an e-mail address');

    expect(await serve.stop()).toEqual({ code: 0, signal: null });
    expect(await embeddedRunning(dataDir)).toBe(false);
  }, 90_000);

  /**
   * The server's own connections to the embedded PostgreSQL, as the database names them and by
   * the address they come from (null: its Unix socket); not the presence connections
   * (`switchboard:` and a process's handle).
   */
  async function ownConnections(dataDir: string): Promise<{ application_name: string; client_addr: string | null }[]> {
    return await withEmbeddedClient(dataDir, async (client) => {
      const { rows } = await client.query<{ application_name: string; client_addr: string | null }>(
        `select distinct application_name, client_addr::text from pg_stat_activity
          where application_name like 'switchboard%' and application_name not like 'switchboard:%'
          order by application_name`,
      );
      return rows;
    });
  }

  it("connects its own pool through the embedded PostgreSQL's Unix socket, and still listens on 127.0.0.1 for others", async () => {
    const dataDir = await makeDataDir();
    const serve = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    const { base, ownerKey } = await waitForBanner(serve);
    expect((await listProfiles(base, ownerKey as string)).status).toBe(200);
    // postmaster.pid's fifth line: the socket's directory, the server's data directory.
    expect((await postmasterLines(dataDir))[4]).toBe(path.join(dataDir, 'postgres'));
    // The pool's connections are named for the process's roles (both, in `serve`); the
    // listeners of changes and of the workers' liveness keep the bare name.
    expect(await ownConnections(dataDir)).toEqual([
      { application_name: 'switchboard', client_addr: null },
      { application_name: 'switchboard api worker', client_addr: null },
    ]);
    expect(await serve.stop()).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('starts on TCP alone where the socket path would be too long for some system (over 103 bytes)', async () => {
    const parent = await makeDataDir();
    // Run as root, PostgreSQL runs as `postgres`, which must pass through the parent too.
    await fs.chmod(parent, 0o755);
    const dataDir = path.join(parent, 'd'.repeat(100));
    const serve = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    const { base, ownerKey } = await waitForBanner(serve);
    expect((await listProfiles(base, ownerKey as string)).status).toBe(200);
    expect((await postmasterLines(dataDir))[4]).toBe('');
    expect(await ownConnections(dataDir)).toEqual([
      { application_name: 'switchboard', client_addr: '127.0.0.1/32' },
      { application_name: 'switchboard api worker', client_addr: '127.0.0.1/32' },
    ]);
    expect(await serve.stop()).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('a worker joins over TCP a running server whose Unix socket it cannot reach', async () => {
    const dataDir = await makeDataDir();
    const serve = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    const { base, ownerKey } = await waitForBanner(serve);
    // As a process with DATA_DIR mounted elsewhere finds it: postmaster.pid names a socket directory it has not got.
    const lines = await postmasterLines(dataDir);
    lines[4] = path.join(dataDir, 'mounted-elsewhere');
    await fs.writeFile(postmasterPidFile(dataDir), lines.join('\n'));

    const worker = startCli(['worker'], { DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await worker.waitFor(/Unix socket in \S+mounted-elsewhere is out of reach/, { timeoutMs: 60_000 });
    await worker.waitFor(/^ {2}Database: +embedded PostgreSQL/m, { timeoutMs: 60_000 });
    const connections = await ownConnections(dataDir);
    expect([...new Set(connections.map((c) => c.client_addr))].sort()).toEqual(['127.0.0.1/32', null]);
    // The worker's own pool, named for its role, is the one that came over TCP.
    expect(connections).toContainEqual({ application_name: 'switchboard worker', client_addr: '127.0.0.1/32' });
    expect(await worker.stop()).toEqual({ code: 0, signal: null });
    expect((await listProfiles(base, ownerKey as string)).status).toBe(200);
    expect(await serve.stop()).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('a worker joins the running database, and leaving does not stop it', async () => {
    const dataDir = await makeDataDir();
    const serve = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0' });
    const { base, ownerKey } = await waitForBanner(serve);

    const worker = startCli(['worker'], { DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await worker.waitFor(/joined the embedded PostgreSQL already running/, { timeoutMs: 60_000 });
    await worker.waitFor(/^ {2}Database: +embedded PostgreSQL/m, { timeoutMs: 60_000 });
    expect(worker.stdout).toContain('is running.');
    expect(worker.stdout).not.toContain('API:');
    expect(worker.stdout).not.toMatch(/"level":(50|60)/);
    expect(worker.stderr).toBe('');

    expect(await worker.stop()).toEqual({ code: 0, signal: null });
    expect(worker.stdout).toMatch(/left running for 1 other process/);
    expect(await embeddedRunning(dataDir)).toBe(true);
    expect(await call(base, 'GET', '/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
    expect((await listProfiles(base, ownerKey as string)).status).toBe(200);

    expect(await serve.stop()).toEqual({ code: 0, signal: null });
    expect(await embeddedRunning(dataDir)).toBe(false);
  }, 60_000);
});

describe('worker with DATABASE_URL, as compose.yaml starts it', () => {
  it('starts quietly: no warning or error, and no line saying something failed or is disabled', async () => {
    const database = await createTestDatabase();
    try {
      // compose.yaml's settings for its workers: DATABASE_URL, SECRET_KEY, DB_POOL_SIZE 10,
      // LOG_LEVEL info, WORKER_CONCURRENCY and WORKER_BULK_CONCURRENCY at their defaults.
      const worker = startCli(['worker'], {
        DATA_DIR: await makeDataDir(),
        DATABASE_URL: database.url,
        SECRET_KEY: 'a1'.repeat(32),
        DB_POOL_SIZE: '10',
        LOG_LEVEL: 'info',
      });
      await worker.waitFor(/is running\./, { timeoutMs: 60_000 });
      // Both job pools (main and bulk) say they are looking for jobs once they have started.
      await worker.waitFor(/looking for jobs[\s\S]*looking for jobs/);
      expect(await worker.stop()).toEqual({ code: 0, signal: null });

      const lines = worker.stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(lines.length, worker.describe()).toBeGreaterThan(0);
      // pino's levels: 40 warn, 50 error, 60 fatal.
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
      // As words: the task notify_webhook_disabled is named in the pools' start lines.
      const alarming = /\b(fail(s|ed)?|disabled|errors?|cannot)\b/i;
      expect(lines.map((line) => line.msg).filter((msg) => alarming.test(msg))).toEqual([]);
      expect(worker.stderr).toBe('');
    } finally {
      await stopAllCli();
      await database.close();
    }
  }, 60_000);
});

describe('settings', () => {
  it('a bad setting fails at once, naming the variable, before touching DATA_DIR', async () => {
    const dataDir = path.join(await makeDataDir(), 'untouched');
    const [port, rate, url] = await Promise.all([
      runCli(['serve'], { DATA_DIR: dataDir, PORT: 'notaport' }),
      runCli(['serve'], { DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0' }),
      runCli(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: 'mysql://localhost/x' }),
    ]);
    for (const [result, name] of [
      [port, 'PORT'],
      [rate, 'RATE_LIMIT_PER_MINUTE'],
      [url, 'DATABASE_URL'],
    ] as const) {
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`^switchboard: invalid settings: ${name}=`));
      // One line, no stack trace.
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(port.stderr).toContain('PORT="notaport"');
    expect(rate.stderr).not.toContain('PORT');
    expect(await fileExists(dataDir)).toBe(false);
  }, 60_000);

  it('a start that fails (port taken) exits 1, names the cause and leaves no database running', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const dataDir = await makeDataDir();
      const serve = await runCli(['serve'], { DATA_DIR: dataDir, PORT: String(port) }, 60_000);
      expect(serve.code).toBe(1);
      expect(serve.stderr).toContain('EADDRINUSE');
      expect(serve.stderr).toContain(String(port));
      expect(serve.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^switchboard: cannot listen on /)]);
      // No banner, and no owner key created by a start that then failed.
      expect(serve.stdout).not.toContain('sb_owner_');
      expect(await fileExists(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
      expect(await embeddedRunning(dataDir)).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});

describe('a signal during the start', () => {
  it('still stops the embedded PostgreSQL and exits 0, once the start is done', async () => {
    const dataDir = await makeDataDir();
    const serve = startCli(['serve'], { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
    await serve.waitFor(/embedded PostgreSQL started/, { timeoutMs: 60_000 });
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    expect(serve.stdout).toContain('SIGTERM during start');
    expect(await embeddedRunning(dataDir)).toBe(false);
  }, 60_000);
});

describe('api with DATABASE_URL', () => {
  it('uses that database, not an embedded one, and a revoked key stops working in that process', async () => {
    const database = await createTestDatabase();
    try {
      const dataDir = await makeDataDir();
      const api = startCli(['api'], { DATA_DIR: dataDir, PORT: '0', DATABASE_URL: database.url });
      const { base, ownerKey } = await waitForBanner(api);
      expect(api.stdout).toMatch(/^ {2}Database: +DATABASE_URL$/m);
      expect(await fileExists(path.join(dataDir, 'postgres'))).toBe(false);
      const key = ownerKey as string;
      expect((await listProfiles(base, key)).status).toBe(200);
      // Its pool's connections are named for the process's one role.
      const named = await database.pool.query<{ application_name: string }>(
        `select distinct application_name from pg_stat_activity
          where datname = current_database() and application_name like 'switchboard %'`,
      );
      expect(named.rows).toEqual([{ application_name: 'switchboard api' }]);

      const profile = await call<ProfileBody>(base, 'POST', '/v1/profiles', {
        key,
        body: { name: 'Client', external_id: 'client-1' },
      });
      expect(profile.status).toBe(201);
      const profileId = profile.body.id;
      const { rows } = await database.pool.query<{ owner_id: string }>('select owner_id from profiles where id = $1', [
        profileId,
      ]);
      const ownerId = rows[0]?.owner_id as string;
      const newKey = async () => {
        const created = await call<CreatedKeyBody>(base, 'POST', `/v1/profiles/${profileId}/api-keys`, {
          key,
          body: {},
        });
        expect(created.status).toBe(201);
        return created.body;
      };
      const statusWith = async (k: string) => (await call(base, 'GET', '/v1/profiles', { key: k })).status;

      // The process caches keys (else the revocation below would prove nothing): a key
      // deleted behind its back, with the notifying trigger off, still authenticates there.
      // Retried while its change listener may still be connecting (nothing is cached until then).
      let stale = '';
      const caching = await pollUntil(
        async () => {
          const probe = await newKey();
          stale = probe.key;
          expect(await statusWith(probe.key)).toBe(403);
          await database.pool.query('alter table api_keys disable trigger api_keys_cache_changed');
          await database.pool.query('delete from api_keys where id = $1', [probe.id]);
          await database.pool.query('alter table api_keys enable trigger api_keys_cache_changed');
          return (await statusWith(probe.key)) === 403;
        },
        5_000,
        100,
      );
      expect(caching).toBe(true);

      // Deleted by another process (this one): the NOTIFY makes the server forget it.
      const revoked = await newKey();
      expect(await statusWith(revoked.key)).toBe(403);
      expect(await deleteKey(database.db, { ownerId, profileId, keyId: revoked.id })).toEqual({ profileId });
      expect(await pollUntil(async () => (await statusWith(revoked.key)) === 401, 2_000)).toBe(true);
      expect(await statusWith(stale)).toBe(401);

      // A deleted profile: its keys and its external_id stop working at once.
      const doomed = await newKey();
      const byExternalId = { 'service-profile': 'client-1' };
      expect(await statusWith(doomed.key)).toBe(403);
      expect((await call(base, 'GET', '/v1/profiles', { key, headers: byExternalId })).status).toBe(200);
      const deletion = await call(base, 'DELETE', `/v1/profiles/${profileId}`, { key });
      expect(deletion).toEqual({ status: 202, body: { id: profileId, status: 'deletion_pending' } });
      expect(await statusWith(doomed.key)).toBe(401);
      const gone = await call<ErrorBody>(base, 'GET', '/v1/profiles', { key, headers: byExternalId });
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('profile_not_found');
      const left = await database.pool.query('select id from api_keys where profile_id = $1', [profileId]);
      expect(left.rows).toEqual([]);

      // Its cached profile list follows a profile written by another process.
      const before = (await listProfiles(base, key)).body.data.map((p) => p.name);
      expect(before).not.toContain('Written elsewhere');
      await database.pool.query(
        `insert into profiles (id, owner_id, name, created_at, updated_at) values ($1, $2, 'Written elsewhere', now(), now())`,
        ['prf_01kzzzzzzzzzzzzzzzzzzzzzzz', ownerId],
      );
      const listsIt = async () => (await listProfiles(base, key)).body.data.some((p) => p.name === 'Written elsewhere');
      expect(await pollUntil(listsIt, 2_000)).toBe(true);

      expect(await api.stop()).toEqual({ code: 0, signal: null });
      expect(await fileExists(path.join(dataDir, 'postgres'))).toBe(false);
    } finally {
      await stopAllCli();
      await database.close();
    }
  }, 60_000);
});

describe('switchboard migrate', () => {
  it('initialises a fresh DATA_DIR, applies the migrations and leaves no database running', async () => {
    const dataDir = await makeDataDir();
    const first = await runCli(['migrate'], { DATA_DIR: dataDir });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('migrations applied\n');
    expect(await fileExists(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    expect(await embeddedRunning(dataDir)).toBe(false);

    const again = await runCli(['migrate'], { DATA_DIR: dataDir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('migrations applied\n');
    expect(await embeddedRunning(dataDir)).toBe(false);
  }, 60_000);
});

describe('switchboard sandbox', () => {
  it('serves the sandbox platforms alone, and their state survives a restart', async () => {
    const dataDir = await makeDataDir();
    const first = startCli(['sandbox', '--port', '0'], { DATA_DIR: dataDir });
    await first.waitFor(/^ {2}Point a service at it .*\n/m, { timeoutMs: 60_000 });
    const url = /^Sandbox platforms are running at (http:\/\/localhost:\d+\/sandbox)$/m.exec(first.stdout)?.[1];
    expect(url).toBeDefined();
    const base = (url as string).replace(/\/sandbox$/, '');
    const made = await call<{ id: string; posts: unknown[] }>(base, 'POST', '/sandbox/_control/users', {
      body: { platform: 'threads', username: 'demo_user' },
    });
    expect(made.status).toBe(201);
    expect(made.body.posts).toHaveLength(3);
    // The service's API is not served here.
    expect((await call(base, 'GET', '/v1/profiles')).status).toBe(404);
    expect(await first.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(await embeddedRunning(dataDir)).toBe(false);

    const second = startCli(['sandbox', '--port', '0'], { DATA_DIR: dataDir });
    await second.waitFor(/^ {2}Point a service at it .*\n/m, { timeoutMs: 60_000 });
    const again = /running at (http:\/\/localhost:\d+)\/sandbox$/m.exec(second.stdout)?.[1] as string;
    const found = await call<{ id: string }>(again, 'GET', '/sandbox/_control/users/threads/demo_user');
    expect(found).toMatchObject({ status: 200, body: { id: made.body.id } });
    expect(await second.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 90_000);
});
