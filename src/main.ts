import type { AddressInfo } from 'node:net';
import { Command, InvalidArgumentError } from 'commander';
import pino, { type Logger } from 'pino';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { SERVICE_NAME, SERVICE_VERSION } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { runMigrations } from './db/migrate.ts';
import { requestLogFields } from './http/log-fields.ts';
import { EmailText, NameText } from './http/schemas.ts';
import { DocumentUnavailableError, runStdioServer } from './mcp/stdio.ts';
import { createKey, deleteKey, listOwnerKeys } from './modules/api-keys/index.ts';
import { recordCommand } from './modules/audit/index.ts';
import { insertOwner, listOwners, ownerExists } from './modules/owners/index.ts';
import { findProfile } from './modules/profiles/index.ts';
import { buildSandboxApp } from './sandbox/server.ts';
import { type Roles, type RunningService, startService } from './service.ts';

/** Errors a user can fix: printed as one line, exit code 1, no stack. */
class UsageError extends Error {}

function config(): Config {
  return loadConfig();
}

/** Logs of long-running commands go to stdout; one-shot commands keep stdout for their answer. */
function logger(cfg: Config, oneShot: boolean): Logger {
  return pino(
    {
      level: oneShot && cfg.logLevel === 'info' ? 'warn' : cfg.logLevel,
      serializers: { req: requestLogFields },
    },
    oneShot ? pino.destination(2) : undefined,
  );
}

function banner(service: RunningService, cfg: Config): string {
  const lines = [`${SERVICE_NAME} ${SERVICE_VERSION} is running.`];
  if (service.baseUrl) {
    lines.push(
      `  Dashboard:     ${service.baseUrl}/dashboard  (sign in with an owner or profile API key)`,
      `  API:           ${service.baseUrl}/v1`,
      `  API docs:      ${service.baseUrl}/docs`,
      `  OpenAPI:       ${service.baseUrl}/openapi.json`,
      `  Health check:  ${service.baseUrl}/healthz  (readiness: ${service.baseUrl}/readyz)`,
      `  Connect pages: ${service.baseUrl}/connect/<token>  (links from POST /v1/profiles/{id}/connect-links, see docs/connect.md)`,
    );
    if (service.platforms.mode === 'live') {
      lines.push(
        `  OAuth redirect URIs to register: ${service.baseUrl}/connect/callback/<platform>; app removal: ${service.baseUrl}/platforms/<platform>/deauthorize`,
      );
    }
  }
  lines.push(
    service.platforms.mode === 'sandbox'
      ? `  Platforms:     sandbox at ${service.sandboxUrl} (controls: ${service.sandboxUrl}/_control, see docs/sandbox.md)`
      : `  Platforms:     live: ${service.platforms.available.join(', ') || 'none configured'}`,
    `  Database:      ${service.database.embedded ? `embedded PostgreSQL, data in ${cfg.dataDir}` : 'DATABASE_URL'}`,
  );
  if (service.firstOwner) {
    lines.push(
      '',
      `First start: an owner was created (${service.firstOwner.ownerId}) with a default profile (${service.firstOwner.defaultProfileId}).`,
      'Its API key is shown this once and stored only as a hash. Keep it now:',
      '',
      `  ${service.firstOwner.apiKey}`,
      '',
      `Try: curl -H "Authorization: Bearer ${service.firstOwner.apiKey}" ${service.baseUrl}/v1/profiles`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function runService(roles: Roles): Promise<void> {
  const cfg = config();
  const log = logger(cfg, false);
  let service: RunningService | undefined;
  let stopRequested: NodeJS.Signals | undefined;
  let signals = 0;

  /** Stops, then exits with `code` (1 when the process stops for a failure of its own). */
  const stopAndExit = (running: RunningService, cause: string, code = 0) => {
    log.info(`${cause}: finishing requests in flight, then stopping`);
    setTimeout(() => {
      log.error(`shutdown took longer than SHUTDOWN_TIMEOUT_MS=${cfg.shutdownTimeoutMs}; exiting`);
      process.exit(1);
    }, cfg.shutdownTimeoutMs).unref();
    running.stop().then(
      () => {
        log.info('stopped');
        process.exit(code);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // Installed before the start: a signal during it (initdb, migrations) must still stop
  // the embedded database, which runs in a session of its own and would outlive us.
  const shutdown = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      log.warn(`${signal} again: exiting without finishing the shutdown`);
      process.exit(1);
    }
    if (service) stopAndExit(service, signal);
    else {
      log.info(`${signal} during start: stopping as soon as the start is done`);
      stopRequested = signal;
    }
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  try {
    service = await startService(cfg, roles, log);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new UsageError(
        `cannot listen on ${cfg.host}:${cfg.port} (${code}); set PORT to a free port (0 picks one) or HOST to another address`,
      );
    }
    throw error;
  }
  // Printed even when a stop is pending: a first start's owner key exists only here.
  process.stdout.write(banner(service, cfg));
  if (stopRequested) stopAndExit(service, stopRequested);
  const running = service;
  void running.failed.then((error) => {
    // Counts as the first stop request: nothing to do if a signal came first, and a signal
    // after it exits at once, as a second signal does.
    if (signals > 0) return;
    signals += 1;
    log.error(
      { err: error },
      `${error.message}; this process stops with exit code 1, for its supervisor to start it again`,
    );
    stopAndExit(running, 'failure', 1);
  });
}

/** `switchboard sandbox`: the sandbox platforms alone, on the configured database, until a signal. */
async function runSandbox(port: number): Promise<void> {
  const cfg = config();
  const log = logger(cfg, false);
  const database = await openDatabase(cfg, (message) => log.info({ component: 'database' }, message));
  let app: Awaited<ReturnType<typeof buildSandboxApp>> | undefined;
  const stop = async (signal: NodeJS.Signals) => {
    log.info(`${signal}: stopping the sandbox`);
    await app?.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await runMigrations(database.pool, (message) => log.warn(message));
    app = await buildSandboxApp({ db: database.db, log });
    await app.listen({ port, host: cfg.host });
  } catch (error) {
    await app?.close();
    await database.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new UsageError(`cannot listen on ${cfg.host}:${port} (${code}); pick another --port (0 picks one)`);
    }
    throw error;
  }
  const { port: bound } = app.server.address() as AddressInfo;
  const url = `${cfg.publicUrl ?? `http://localhost:${bound}`}/sandbox`;
  process.stdout.write(
    `Sandbox platforms are running at ${url}\n  Control API: ${url}/_control (docs/sandbox.md)\n  Point a service at it with PLATFORMS=sandbox SANDBOX_URL=${url}\n`,
  );
}

/** Runs a one-shot command against the database, migrated, and leaves it. */
async function withDatabase<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const cfg = config();
  const log = logger(cfg, true);
  const database = await openDatabase(cfg, (message) => log.info(message));
  try {
    await runMigrations(database.pool, (message) => log.warn(message));
    return await fn(database);
  } finally {
    await database.close();
  }
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number, 0 or more');
  return n;
}

/** An option checked with the same schema the API uses for that kind of value. */
function checked(schema: TSchema, rule: string) {
  return (value: string) => {
    if (!Value.Check(schema, value)) throw new InvalidArgumentError(rule);
    return value;
  };
}
const nameOption = checked(NameText(200, ''), 'must be 1 to 200 characters, not only spaces, no control characters');
const emailOption = checked(EmailText, 'must be an e-mail address');

/** `switchboard mcp`: its settings are the environment's, as an MCP client's configuration sets them. */
async function runMcp(): Promise<void> {
  const env = process.env;
  const apiKey = env.SWITCHBOARD_API_KEY?.trim();
  if (!apiKey) throw new UsageError('set SWITCHBOARD_API_KEY to an owner or profile API key (docs/mcp.md)');
  const url = env.SWITCHBOARD_URL?.trim() || 'http://localhost:8080';
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new UsageError(`SWITCHBOARD_URL must be the service's http(s) base URL, not ${JSON.stringify(url)}`);
  }
  const profile = env.SWITCHBOARD_PROFILE?.trim() || undefined;
  try {
    await runStdioServer({
      name: SERVICE_NAME,
      version: SERVICE_VERSION,
      url,
      apiKey,
      ...(profile ? { profile } : {}),
    });
  } catch (error) {
    if (error instanceof DocumentUnavailableError) throw new UsageError(`mcp: ${error.message}`);
    throw error;
  }
}

const program = new Command('switchboard')
  .description(`${SERVICE_NAME}: a self-hostable social-publishing API for agencies`)
  .version(SERVICE_VERSION)
  .showHelpAfterError();

program
  .command('serve', { isDefault: true })
  .description('run the API and the background workers (what `npm start` runs)')
  .action(() => runService({ api: true, worker: true }));

program
  .command('api')
  .description('run the API only')
  .action(() => runService({ api: true, worker: false }));

program
  .command('worker')
  .description('run background workers only; start as many as you like, on as many machines')
  .action(() => runService({ api: false, worker: true }));

program
  .command('migrate')
  .description('apply database migrations and exit (every start also does this)')
  .action(() =>
    withDatabase(async () => {
      process.stdout.write('migrations applied\n');
    }),
  );

program
  .command('sandbox')
  .description('run only the sandbox platforms (fake Instagram, Threads, TikTok, Facebook, LinkedIn) on their own port')
  .option('--port <n>', 'port to listen on (0 picks one)', positiveInt, 8090)
  .action((options: { port: number }) => runSandbox(options.port));

program
  .command('mcp')
  .description(
    'run the MCP server over stdio for an AI agent: its tools call the service at SWITCHBOARD_URL (default http://localhost:8080) with the API key in SWITCHBOARD_API_KEY, inside the profile SWITCHBOARD_PROFILE when set (docs/mcp.md)',
  )
  .action(() => runMcp());

const owners = program.command('owners').description('manage owners (agencies)');
owners
  .command('create')
  .description('create an owner with a default profile and print its owner API key (shown once)')
  .requiredOption('--name <name>', 'owner name', nameOption)
  .requiredOption('--email <email>', 'where notices (e.g. a disabled webhook) are sent', emailOption)
  .option('--account-limit <n>', 'connected accounts the plan allows (default: unlimited)', positiveInt)
  .option('--json', 'print {"owner_id","api_key"} as JSON')
  .action((options: { name: string; email: string; accountLimit?: number; json?: boolean }) =>
    withDatabase(async ({ db }) => {
      const owner = await db.transaction(async (tx) => {
        const created = await insertOwner(tx, {
          name: options.name,
          email: options.email,
          accountLimit: options.accountLimit,
        });
        await recordCommand(tx, {
          ownerId: created.ownerId,
          profileId: null,
          command: 'owners create',
          objectId: created.ownerId,
        });
        return created;
      });
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ owner_id: owner.ownerId, api_key: owner.apiKey })}\n`
          : `owner ${owner.ownerId} created (default profile ${owner.defaultProfileId})\nowner API key, shown this once:\n${owner.apiKey}\n`,
      );
    }),
  );

owners
  .command('list')
  .description('list the owners (ids, names, e-mails), e.g. to find the id `keys create --owner` needs')
  .option('--json', 'print one JSON object per line')
  .action((options: { json?: boolean }) =>
    withDatabase(async ({ db }) => {
      for (const o of await listOwners(db)) {
        const row = {
          owner_id: o.id,
          name: o.name,
          email: o.email,
          account_limit: o.accountLimit,
          created_at: o.createdAt.toISOString(),
        };
        process.stdout.write(
          options.json
            ? `${JSON.stringify(row)}\n`
            : `${row.owner_id}  ${row.name} <${row.email}>  ${row.created_at}\n`,
        );
      }
    }),
  );

const keys = program.command('keys').description('manage API keys');
keys
  .command('create')
  .description('create an API key and print it (shown once): a profile key with --profile, else an owner key')
  .requiredOption('--owner <id>', 'owner id')
  .option('--profile <id>', 'profile id or external_id the key is locked to')
  .option('--name <name>', 'a label for the key', nameOption)
  .option('--json', 'print {"key_id","profile_id","api_key"} as JSON (profile_id null for an owner key)')
  .action((options: { profile?: string; owner: string; name?: string; json?: boolean }) =>
    withDatabase(async ({ db }) => {
      if (!(await ownerExists(db, options.owner))) throw new UsageError(`no owner ${options.owner}`);
      let profileId: string | null = null;
      if (options.profile !== undefined) {
        const profile = await findProfile(db, options.owner, options.profile);
        if (!profile) throw new UsageError(`owner ${options.owner} has no profile ${options.profile}`);
        profileId = profile.id;
      }
      const key = await db.transaction(async (tx) => {
        const made = await createKey(tx, { ownerId: options.owner, profileId, name: options.name ?? null });
        await recordCommand(tx, { ownerId: options.owner, profileId, command: 'keys create', objectId: made.id });
        return made;
      });
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ key_id: key.id, profile_id: profileId, api_key: key.key })}\n`
          : `${profileId ? `profile key ${key.id} created for ${profileId}` : `owner key ${key.id} created`}\nAPI key, shown this once:\n${key.key}\n`,
      );
    }),
  );
keys
  .command('list')
  .description("list an owner's keys (never the keys themselves)")
  .requiredOption('--owner <id>', 'owner id')
  .option('--json', 'print one JSON object per line')
  .action((options: { owner: string; json?: boolean }) =>
    withDatabase(async ({ db }) => {
      if (!(await ownerExists(db, options.owner))) throw new UsageError(`no owner ${options.owner}`);
      for (const k of await listOwnerKeys(db, options.owner)) {
        const row = {
          key_id: k.id,
          profile_id: k.profileId,
          name: k.name,
          key_start: k.keyStart,
          created_at: k.createdAt.toISOString(),
        };
        process.stdout.write(
          options.json
            ? `${JSON.stringify(row)}\n`
            : `${row.key_id}  ${row.key_start}...  ${row.profile_id ?? 'owner key'}  ${row.created_at}  ${row.name ?? ''}\n`,
        );
      }
    }),
  );
keys
  .command('delete')
  .description('delete a key (owner or profile key); it stops working at once')
  .requiredOption('--owner <id>', 'owner id')
  .requiredOption('--key <id>', 'key id (key_...), as `keys list` shows it')
  .action((options: { owner: string; key: string }) =>
    withDatabase(async ({ db }) => {
      const deleted = await deleteKey(db, { ownerId: options.owner, keyId: options.key });
      if (deleted === undefined) throw new UsageError(`owner ${options.owner} has no key ${options.key}`);
      // After the deletion's own transaction, which ends the key's sessions and cached answers.
      try {
        await recordCommand(db, {
          ownerId: options.owner,
          profileId: deleted.profileId,
          command: 'keys delete',
          objectId: options.key,
        });
      } catch (error) {
        throw new UsageError(
          `key ${options.key} deleted, but its audit entry could not be written: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      process.stdout.write(`key ${options.key} deleted\n`);
    }),
  );

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof UsageError || error instanceof ConfigError) {
    process.stderr.write(`switchboard: ${error.message}\n`);
  } else {
    process.stderr.write(`switchboard: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
}
