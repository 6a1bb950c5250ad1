import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { minimumNodeVersion, nodeVersionProblem } from '../bin/node-version.js';
import { CLI } from './helpers/process.ts';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url);
const readJson = (file: string) => JSON.parse(fs.readFileSync(new URL(file, ROOT), 'utf8'));

/** The Node.js the service needs at least: undici, the outbound HTTP client, asks for 22.19. */
const FLOOR = '22.19.0';

describe('the Node.js version the service runs on', () => {
  it('is one floor in package.json, the lockfile and the check', () => {
    expect(readJson('package.json').engines).toEqual({ node: '>=22.19' });
    expect(readJson('package-lock.json').packages[''].engines).toEqual({ node: '>=22.19' });
    expect(minimumNodeVersion()).toEqual([22, 19, 0]);
  });

  it('admits every version a production dependency for this machine needs', () => {
    const packages = readJson('package-lock.json').packages as Record<
      string,
      { dev?: boolean; os?: string[]; cpu?: string[]; engines?: { node?: string } }
    >;
    // A platform's own build (sharp's for 32-bit Windows, say) is installed only there.
    const forThisMachine = (info: { os?: string[]; cpu?: string[] }) =>
      (info.os ?? [process.platform]).includes(process.platform) && (info.cpu ?? [process.arch]).includes(process.arch);
    const ranges = Object.entries(packages).flatMap(([name, info]) =>
      name !== '' && !info.dev && forThisMachine(info) && info.engines?.node
        ? [[name, info.engines.node] as const]
        : [],
    );
    expect(ranges.length).toBeGreaterThan(20);
    const floor = minimumNodeVersion().join('.');
    for (const [name, range] of ranges) expect(semver.satisfies(floor, range), `${name}: ${range}`).toBe(true);
  });

  it('refuses an older Node.js, saying which version is needed and how to get it', () => {
    for (const older of ['20.20.2', '22.18.0', '22.0.0', '18.20.8']) {
      const problem = nodeVersionProblem(older);
      expect(problem).toContain('needs Node.js 22.19 or later');
      expect(problem).toContain(`this is Node.js ${older}`);
      expect(problem).toContain('`npx switchboard`');
      expect(problem).not.toContain('\n');
    }
  });

  it('accepts the floor and anything later', () => {
    for (const version of ['22.19.0', '22.20.1', '23.0.0', '24.21.0', '26.1.0']) {
      expect(nodeVersionProblem(version)).toBeUndefined();
    }
  });
});

/** A Node.js on this machine older than the floor: Debian's, the machine's own, beside the pinned one. */
async function olderNode(): Promise<string> {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/usr/local/bin'];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'node');
    if (!fs.existsSync(candidate)) continue;
    const { stdout } = await run(candidate, ['--version']);
    if (semver.lt(stdout.trim(), FLOOR)) return candidate;
  }
  throw new Error(`this test runs switchboard on a Node.js older than ${FLOOR}, and the machine has none on PATH`);
}

describe('node bin/switchboard.js on an older Node.js', () => {
  it('exits 1 with one line on stderr naming the version needed, before anything fails to load', async () => {
    const node = await olderNode();
    const version = (await run(node, ['--version'])).stdout.trim().slice(1);
    for (const args of [['--help'], ['serve']]) {
      const result = await run(node, [CLI, ...args]).then(
        () => ({ code: 0, stdout: '', stderr: '' }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `switchboard: needs Node.js 22.19 or later, and this is Node.js ${version}. Run \`npx switchboard\` or the npm scripts (\`npm start\`) in the project folder, which use the Node.js the project pins (the \`node\` devDependency, installed by \`npm ci\`), or install Node.js 22.19 or later.\n`,
      );
    }
  });
});
