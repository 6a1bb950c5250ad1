/**
 * compose.yaml cannot be run here (no Docker), so what can be checked is checked: it parses,
 * every setting it gives the service is one docs/settings.md documents and the service accepts,
 * and its services agree with each other on addresses, credentials and the bucket.
 */
import { readFileSync } from 'node:fs';
import { DockerfileParser } from 'dockerfile-ast';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.ts';

interface Service {
  image?: string;
  build?: string;
  command?: string[] | string;
  entrypoint?: string[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  ports?: string[];
}

const compose = parse(readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;

/** What an operator sets in the shell, as the file's header says: only SECRET_KEY. */
const SHELL = { SECRET_KEY: 'a1'.repeat(32) };

/** Compose's interpolation: `${VAR}`, `${VAR:-default}`, `${VAR:?error}`. */
function interpolate(value: string, shell: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_whole, name: string, op?: string, arg?: string) => {
    const set = shell[name];
    if (set !== undefined && set !== '') return set;
    if (op === '-') return arg ?? '';
    if (op === '?') throw new Error(`${name}: ${arg}`);
    return '';
  });
}

function environment(service: Service, shell: Record<string, string> = SHELL): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), shell)]),
  );
}

function words(command: Service['command']): string[] {
  return typeof command === 'string' ? command.split(/\s+/) : (command ?? []);
}

/** The services run from this project's image. */
const switchboard = Object.entries(services).filter(([, s]) => s.build === '.');

/** The names in the settings table of docs/settings.md, the documentation an operator reads. */
function documentedSettings(): Set<string> {
  const section = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');
  const names = new Set<string>();
  for (const row of section.split('\n').filter((l) => l.startsWith('| `'))) {
    const first = row.split('|')[1] ?? '';
    for (const m of first.matchAll(/`([A-Z0-9_]+)`/g)) names.add(m[1] ?? '');
  }
  return names;
}

/**
 * Whether an image reference names one release: a digest, or a tag that is a version with at
 * least a minor part (`postgres:18.6`, `caddy:2.11.4`, `versity/versitygw:v1.8.0`). No tag is
 * `latest`; `latest`, a major alone (`caddy:2`, `postgres:18`) or a word (`alpine`) move to
 * another release when it is published.
 */
function pinned(image: string): boolean {
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return true;
  const name = image.slice(image.lastIndexOf('/') + 1);
  const colon = name.indexOf(':');
  if (colon < 0) return false;
  return /^v?\d+\.\d+([.-][A-Za-z0-9.-]*)?$/.test(name.slice(colon + 1));
}

describe('pinned, the rule for compose.yaml images', () => {
  it('takes a release tag or a digest, and refuses no tag, latest, a major alone and a word', () => {
    for (const image of [
      'postgres:18.6',
      'caddy:2.11.4',
      'versity/versitygw:v1.8.0',
      'amazon/aws-cli:2.37.5',
      'postgres:18.6-alpine3.23',
      'registry.internal:5000/team/caddy:2.11.4',
      `caddy@sha256:${'0'.repeat(64)}`,
    ]) {
      expect(pinned(image), image).toBe(true);
    }
    for (const image of [
      'postgres',
      'postgres:latest',
      'postgres:18',
      'caddy:2',
      'caddy:2-alpine',
      'versity/versitygw:latest',
      'amazon/aws-cli',
      'registry.internal:5000/team/caddy',
      'postgres:alpine',
      'postgres:v18',
    ]) {
      expect(pinned(image), image).toBe(false);
    }
  });
});

describe('compose.yaml', () => {
  it('pins every image it pulls to one release', () => {
    const pulled = Object.entries(services).filter(([, s]) => s.build === undefined);
    expect(pulled.map(([name]) => name).sort()).toEqual(['postgres', 'proxy', 's3', 's3-bucket']);
    for (const [name, service] of pulled) expect(pinned(service.image ?? ''), `${name}: ${service.image}`).toBe(true);
  });

  it('runs two API processes and two workers from the image, after the migrations ran once', () => {
    const commands = switchboard.map(([, s]) => words(s.command).join(' ')).sort();
    expect(commands).toEqual(['api', 'api', 'migrate', 'worker', 'worker']);
    for (const [name, service] of switchboard) {
      if (words(service.command)[0] === 'migrate') {
        expect(service.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
        continue;
      }
      expect(service.depends_on, name).toMatchObject({ migrate: { condition: 'service_completed_successfully' } });
    }
  });

  it('gives the service only settings docs/settings.md documents, with values it accepts', () => {
    const documented = documentedSettings();
    expect(documented.size).toBeGreaterThan(40);
    for (const [name, service] of switchboard) {
      const env = environment(service);
      for (const setting of Object.keys(env)) expect(documented, `${name}: ${setting}`).toContain(setting);
      const config = loadConfig(env);
      expect(config.databaseUrl).toBe('postgres://switchboard:switchboard@postgres:5432/switchboard');
      expect(config.secretKey).toBe(SHELL.SECRET_KEY);
      expect(config.s3).toEqual({
        bucket: 'switchboard-media',
        endpoint: 'http://s3:7070',
        region: 'us-east-1',
        credentials: { accessKeyId: 'switchboard', secretAccessKey: 'switchboard-secret' },
        forcePathStyle: true,
        presignedUrls: false,
      });
    }
  });

  it('will not start without a SECRET_KEY, which every process must share', () => {
    const [, api] = switchboard.find(([, s]) => words(s.command)[0] === 'api') ?? [];
    expect(api).toBeDefined();
    expect(() => environment(api as Service, {})).toThrow(/SECRET_KEY: set SECRET_KEY/);
  });

  it('has the services agree on the database, the store and its bucket, with the shell’s settings too', () => {
    const shell = { ...SHELL, POSTGRES_PASSWORD: 'pw-1', S3_ACCESS_KEY_ID: 'key-1', S3_SECRET_ACCESS_KEY: 'secret-1' };
    const postgres = environment(services.postgres as Service, shell);
    const store = services.s3 as Service;
    const storeEnv = environment(store, shell);
    const bucketInit = services['s3-bucket'] as Service;
    const bucketEnv = environment(bucketInit, shell);
    for (const [name, service] of switchboard) {
      const env = environment(service, shell);
      const database = new URL(env.DATABASE_URL ?? '');
      expect(database.hostname, name).toBe('postgres');
      expect([database.username, database.password, database.pathname]).toEqual([
        postgres.POSTGRES_USER,
        postgres.POSTGRES_PASSWORD,
        `/${postgres.POSTGRES_DB}`,
      ]);
      expect(database.password).toBe('pw-1');

      const endpoint = new URL(env.S3_ENDPOINT ?? '');
      expect(Object.keys(services)).toContain(endpoint.hostname);
      expect(endpoint.hostname).toBe('s3');
      expect(words(store.command)).toEqual(expect.arrayContaining(['--port', `:${endpoint.port}`]));
      expect(bucketEnv.AWS_ENDPOINT_URL).toBe(env.S3_ENDPOINT);
      expect([storeEnv.ROOT_ACCESS_KEY, storeEnv.ROOT_SECRET_KEY]).toEqual(['key-1', 'secret-1']);
      expect([env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY]).toEqual(['key-1', 'secret-1']);
      expect([bucketEnv.AWS_ACCESS_KEY_ID, bucketEnv.AWS_SECRET_ACCESS_KEY]).toEqual(['key-1', 'secret-1']);
      expect(words(bucketInit.command).join(' ')).toContain(`--bucket ${env.S3_BUCKET} `);
      expect(service.depends_on, name).toMatchObject(
        words(service.command)[0] === 'migrate' ? {} : { 's3-bucket': { condition: 'service_completed_successfully' } },
      );
    }
  });

  it('keeps media in a maintained S3-compatible store, not MinIO', () => {
    expect(services.s3?.image).toMatch(/^versity\/versitygw:/);
    for (const service of Object.values(services)) expect(service.image ?? '').not.toMatch(/minio/i);
  });

  it('balances the API processes behind one port, sending only to those that are ready', () => {
    const proxy = services.proxy as Service;
    const targets = words(proxy.command)
      .map((w, i, all) => (all[i - 1] === '--to' ? w : undefined))
      .filter((w) => w !== undefined);
    const apis = switchboard.filter(([, s]) => words(s.command)[0] === 'api').map(([name]) => name);
    // The image listens on its PORT, which compose does not move.
    const dockerfile = DockerfileParser.parse(readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8'));
    const port = dockerfile
      .getENVs()
      .flatMap((env) => env.getProperties())
      .findLast((p) => p.getName() === 'PORT');
    expect(port?.getValue()).toBe('8080');
    expect(targets.sort()).toEqual(apis.map((name) => `${name}:8080`).sort());
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own interpolation, as written in the file
    expect(proxy.ports).toEqual(['${PORT:-8080}:8080']);
    for (const name of apis) {
      expect(services[name]?.environment?.PORT).toBeUndefined();
      expect(services[name]?.healthcheck?.test.join(' ')).toContain('http://127.0.0.1:8080/readyz');
      expect(proxy.depends_on).toMatchObject({ [name]: { condition: 'service_healthy' } });
    }
  });
});
