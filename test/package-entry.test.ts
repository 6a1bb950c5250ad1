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

describe('the package entry', () => {
  it('gives plain Node (no TypeScript loader) verifyWebhook from node_modules', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-package-'));
    try {
      const installed = path.join(dir, 'node_modules', 'switchboard');
      // What `npm install` of the package leaves: its package.json and the build `prepare` makes.
      await run(process.execPath, [
        path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        path.join(ROOT, 'tsconfig.build.json'),
        '--outDir',
        path.join(installed, 'dist'),
      ]);
      await fs.copyFile(path.join(ROOT, 'package.json'), path.join(installed, 'package.json'));

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
});
