import { Command, InvalidArgumentError } from 'commander';
import pino, { type Logger } from 'pino';
import { SERVICE_NAME, SERVICE_VERSION } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { runMigrations } from './db/migrate.ts';
import { createKey } from './modules/api-keys/service.ts';
import { createOwner, ownerExists } from './modules/owners/service.ts';
import { findProfile } from './modules/profiles/service.ts';
import { type Roles, type RunningService, startService } from './service.ts';

/** Errors a user can fix: printed as one line, exit code 1, no stack. */
class UsageError extends Error {}

function config(): Config {
  return loadConfig();
}

/** Logs of long-running commands go to stdout; one-shot commands keep stdout for their answer. */
function logger(cfg: Config, oneShot: boolean): Logger {
  return pino(
    { level: oneShot && cfg.logLevel === 'info' ? 'warn' : cfg.logLevel },
    oneShot ? pino.destination(2) : undefined,
  );
}

function banner(service: RunningService, cfg: Config): string {
  const lines = [`${SERVICE_NAME} ${SERVICE_VERSION} is running.`];
  if (service.baseUrl) {
    lines.push(
      `  API:           ${service.baseUrl}/v1`,
      `  API docs:      ${service.baseUrl}/docs`,
      `  OpenAPI:       ${service.baseUrl}/openapi.json`,
      `  Health check:  ${service.baseUrl}/healthz  (readiness: ${service.baseUrl}/readyz)`,
    );
  }
  lines.push(
    `  Database:      ${service.database.embedded ? `embedded PostgreSQL, data in ${cfg.dataDir}` : 'DATABASE_URL'}`,
  );
  if (service.firstOwner) {
    lines.push(
      '',
      'First start: an owner was created with a default profile.',
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
  const service = await startService(cfg, roles, log);
  process.stdout.write(banner(service, cfg));
  let signals = 0;
  const shutdown = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      log.warn(`${signal} again: exiting without finishing the shutdown`);
      process.exit(1);
    }
    log.info(`${signal}: finishing requests in flight, then stopping`);
    const timer = setTimeout(() => {
      log.error(`shutdown took longer than SHUTDOWN_TIMEOUT_MS=${cfg.shutdownTimeoutMs}; exiting`);
      process.exit(1);
    }, cfg.shutdownTimeoutMs);
    timer.unref();
    service.stop().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

/** Runs a one-shot command against the database, migrated, and leaves it. */
async function withDatabase<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const cfg = config();
  const log = logger(cfg, true);
  const database = await openDatabase(cfg, (message) => log.info(message));
  try {
    await runMigrations(database.pool);
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

function nonEmpty(label: string) {
  return (value: string) => {
    if (value.trim() === '') throw new InvalidArgumentError(`${label} must not be empty`);
    return value;
  };
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

const owners = program.command('owners').description('manage owners (agencies)');
owners
  .command('create')
  .description('create an owner with a default profile and print its owner API key (shown once)')
  .requiredOption('--name <name>', 'owner name', nonEmpty('--name'))
  .requiredOption('--email <email>', 'where notices (e.g. a disabled webhook) are sent', nonEmpty('--email'))
  .option('--account-limit <n>', 'connected accounts the plan allows (default: unlimited)', positiveInt)
  .option('--json', 'print {"owner_id","api_key"} as JSON')
  .action((options: { name: string; email: string; accountLimit?: number; json?: boolean }) =>
    withDatabase(async ({ db }) => {
      const owner = await createOwner(db, {
        name: options.name,
        email: options.email,
        accountLimit: options.accountLimit,
      });
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ owner_id: owner.ownerId, api_key: owner.apiKey })}\n`
          : `owner ${owner.ownerId} created (default profile ${owner.defaultProfileId})\nowner API key, shown this once:\n${owner.apiKey}\n`,
      );
    }),
  );

const keys = program.command('keys').description('manage API keys');
keys
  .command('create')
  .description('create a profile API key and print it (shown once)')
  .requiredOption('--profile <id>', 'profile id or external_id')
  .requiredOption('--owner <id>', 'owner id')
  .option('--name <name>', 'a label for the key')
  .option('--json', 'print {"key_id","profile_id","api_key"} as JSON')
  .action((options: { profile: string; owner: string; name?: string; json?: boolean }) =>
    withDatabase(async ({ db }) => {
      if (!(await ownerExists(db, options.owner))) throw new UsageError(`no owner ${options.owner}`);
      const profile = await findProfile(db, options.owner, options.profile);
      if (!profile) throw new UsageError(`owner ${options.owner} has no profile ${options.profile}`);
      const key = await createKey(db, { ownerId: options.owner, profileId: profile.id, name: options.name ?? null });
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ key_id: key.id, profile_id: profile.id, api_key: key.key })}\n`
          : `profile key ${key.id} created for ${profile.id}\nAPI key, shown this once:\n${key.key}\n`,
      );
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
