import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

/**
 * The module rules `npm run check` enforces (.dependency-cruiser.cjs, and the public-entries
 * check tsc compiles), run on a fixture tree that breaks each of them on purpose
 * (test/architecture/fixtures/violations), and on src/.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const config = createRequire(import.meta.url)(`${root}.dependency-cruiser.cjs`);

async function violations(baseDir: string): Promise<string[]> {
  const result = await cruise(['src', 'dashboard'], {
    ...config.options,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    baseDir,
  });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

/**
 * What tsc says of the fixture tree's public-entries check (its tsconfig compiles that file
 * alone): each module whose entry hands out query parts, with those exports.
 */
async function queryPartsHandedOut(dir: string): Promise<string[]> {
  const tsc = `${root}node_modules/.bin/tsc`;
  const output = await promisify(execFile)(tsc, ['-p', `${dir}/tsconfig.json`, '--pretty', 'false']).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  const found = [...output.matchAll(/module: "([^"]+)"; handsOutQueryParts: ([^;]+);/g)];
  // Any other error would hide what the check says.
  expect(output.split('\n').filter((line) => / error TS/.test(line))).toHaveLength(found.length);
  return found.map((m) => `${m[1]}: ${m[2]}`).sort();
}

describe('the module rules', () => {
  it('fail on every deliberate violation in the fixture tree, and on nothing it allows', async () => {
    expect(await violations(fileURLToPath(new URL('fixtures/violations', import.meta.url)))).toEqual([
      'client-stands-alone: src/client/index.ts -> crypto',
      'client-stands-alone: src/client/index.ts -> src/http/auth.ts',
      'dashboard-through-the-client: dashboard/src/screen.tsx -> src/http/auth.ts',
      'lower-layers-reach-no-module: src/http/auth.ts -> src/modules/delta/index.ts',
      'lower-layers-reach-no-module: src/jobs/queue.ts -> src/modules/delta/index.ts',
      'lower-layers-reach-no-module: src/platforms/adapter.ts -> src/modules/delta/index.ts',
      'mcp-through-the-api: src/mcp/tools.ts -> src/modules/delta/index.ts',
      'module-through-its-entry: src/modules/alpha/service.ts -> src/modules/beta/service.ts',
      'no-circular: src/modules/alpha/index.ts -> src/modules/alpha/service.ts',
      'outside-through-module-entry: src/app.ts -> src/modules/alpha/tables.ts',
      'pages-escape-by-rendering: src/web/escaped-by-hand.ts -> ../../../../node_modules/escape-html/index.js',
      'resolvable: src/web/page.ts -> ./missing.ts',
      'sandbox-imitates-the-docs: src/sandbox/control.ts -> src/platforms/names.ts',
      'tables-reference-only-columns: src/modules/alpha/tables.ts -> src/modules/beta/tables.ts',
      'web-renders-pages-only: src/web/notices.ts -> src/modules/gamma/index.ts',
    ]);
  });

  it('hold in src/ and dashboard/', async () => {
    expect(await violations(root)).toEqual([]);
  });
});

describe("a module's public entry", () => {
  it('hands out no query part: tsc names each export in the fixture tree that does', async () => {
    expect(await queryPartsHandedOut(fileURLToPath(new URL('fixtures/violations', import.meta.url)))).toEqual([
      'epsilon: "epsilonIdsOf" | "epsilonRows" | "joinEpsilon"',
    ]);
  });

  it('is checked for every module of src/ (tsc compiles that check with the project: npm run check)', () => {
    const listed = [
      ...readFileSync(new URL('public-entries.ts', import.meta.url), 'utf8').matchAll(
        /typeof import\('\.\.\/\.\.\/src\/modules\/([^/]+)\/index\.ts'\)/g,
      ),
    ].map((m) => m[1]);
    const modules = readdirSync(`${root}src/modules`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(listed.sort()).toEqual(modules.sort());
  });
});
