import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../src/webhook-signature.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * What `npm install` of the package leaves in `dir`: node_modules/switchboard with its
 * package.json and the build `prepare` makes, beside the dependencies the entries import.
 */
async function install(dir: string, dependencies: string[] = []): Promise<void> {
  const installed = path.join(dir, 'node_modules', 'switchboard');
  await run(process.execPath, [
    TSC,
    '-p',
    path.join(ROOT, 'tsconfig.build.json'),
    '--outDir',
    path.join(installed, 'dist'),
  ]);
  await fs.copyFile(path.join(ROOT, 'package.json'), path.join(installed, 'package.json'));
  for (const name of dependencies) {
    await fs.symlink(path.join(ROOT, 'node_modules', name), path.join(dir, 'node_modules', name), 'dir');
  }
}

describe('the package entry', () => {
  it('gives plain Node (no TypeScript loader) verifyWebhook from node_modules', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-package-'));
    try {
      await install(dir);

      const body = JSON.stringify({ id: 'e1', type: 'webhook.test' });
      const secret = 'whsec_test';
      const header = signatureHeader(body, [secret], Math.floor(Date.now() / 1000));
      const script = [
        "import { verifyWebhook } from 'switchboard';",
        `const ok = verifyWebhook(${JSON.stringify(body)}, ${JSON.stringify(header)}, ${JSON.stringify(secret)});`,
        `const bad = verifyWebhook(${JSON.stringify(`${body} `)}, ${JSON.stringify(header)}, ${JSON.stringify(secret)});`,
        'console.log(JSON.stringify({ ok, bad }));',
      ].join('\n');
      await fs.writeFile(path.join(dir, 'receiver.mjs'), script);
      const { stdout } = await run(process.execPath, ['--no-experimental-strip-types', 'receiver.mjs'], { cwd: dir });
      expect(JSON.parse(stdout)).toEqual({ ok: true, bad: false });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('gives plain Node the typed client from switchboard/client, and TypeScript its types', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-package-'));
    try {
      // openapi-fetch is the client's one dependency (and its types' openapi-typescript-helpers).
      await install(dir, ['openapi-fetch', 'openapi-typescript-helpers']);

      // A service of two answers: a page of one profile, and a 404 in the API's error shape.
      const script = `
import { createServer } from 'node:http';
import { createClient, paginate, SwitchboardError } from 'switchboard/client';

const server = createServer((request, response) => {
  response.setHeader('content-type', 'application/json');
  if (request.url === '/v1/profiles' && request.headers.authorization === 'Bearer sb_owner_test') {
    response.end(JSON.stringify({ data: [{ id: 'prf_1', name: 'Default' }], next_cursor: null }));
  } else {
    response.statusCode = 404;
    response.end(JSON.stringify({ error: { code: 'profile_not_found', message: 'No such profile.', request_id: 'req_1' } }));
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const client = createClient({ baseUrl: 'http://127.0.0.1:' + server.address().port, apiKey: 'sb_owner_test' });
const ids = [];
for await (const profile of paginate(client, '/v1/profiles')) ids.push(profile.id);
const missing = await client.GET('/v1/profiles/{id}', { params: { path: { id: 'nope' } } });
let thrown;
try {
  for await (const key of paginate(client, '/v1/profiles/{id}/api-keys', { params: { path: { id: 'nope' } } })) void key;
} catch (error) {
  thrown = { typed: error instanceof SwitchboardError, status: error.status, code: error.code };
}
server.close();
console.log(JSON.stringify({ ids, missing: missing.error.error.code, thrown }));
`;
      await fs.writeFile(path.join(dir, 'client.mjs'), script);
      const { stdout } = await run(process.execPath, ['--no-experimental-strip-types', 'client.mjs'], { cwd: dir });
      expect(JSON.parse(stdout)).toEqual({
        ids: ['prf_1'],
        missing: 'profile_not_found',
        thrown: { typed: true, status: 404, code: 'profile_not_found' },
      });

      // A TypeScript program of the package's user, checked against the installed types.
      const program = `
import { type components, createClient, type ErrorBody, paginate } from 'switchboard/client';

const client = createClient({ baseUrl: 'http://localhost:8080', apiKey: 'sb_owner_test' });
const created = await client.POST('/v1/profiles', { body: { name: 'Acme Bakery', external_id: 'acme-42' } });
const profile: components['schemas']['Profile'] | undefined = created.data;
const error: ErrorBody | undefined = created.error;
for await (const key of paginate(client, '/v1/profiles/{id}/api-keys', { params: { path: { id: 'acme-42' } } })) {
  const start: string = key.key_start;
  void start;
}
// @ts-expect-error: not a path of the API
await client.GET('/v1/nothing');
// @ts-expect-error: a profile's name is a string
await client.POST('/v1/profiles', { body: { name: 7 } });
// @ts-expect-error: this list needs its {id}
paginate(client, '/v1/profiles/{id}/api-keys');
export { error, profile };
`;
      await fs.writeFile(path.join(dir, 'program.ts'), program);
      await fs.writeFile(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2023',
            module: 'nodenext',
            moduleResolution: 'nodenext',
            lib: ['es2023', 'dom', 'dom.asynciterable'],
            types: [],
            strict: true,
            noEmit: true,
          },
          files: ['program.ts'],
        }),
      );
      await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      const checked = await run(process.execPath, [
        TSC,
        '-p',
        path.join(dir, 'tsconfig.json'),
        '--pretty',
        'false',
      ]).then(
        () => '',
        (failure: { stdout?: string }) => failure.stdout ?? String(failure),
      );
      expect(checked).toBe('');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
