import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

/**
 * The module rules `npm run check` enforces (.dependency-cruiser.cjs), run on a fixture tree
 * that breaks each of them on purpose (test/architecture/fixtures/violations/src), and on src/.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const config = createRequire(import.meta.url)(`${root}.dependency-cruiser.cjs`);

async function violations(baseDir: string): Promise<string[]> {
  const result = await cruise(['src'], {
    ...config.options,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    baseDir,
  });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

describe('the module rules', () => {
  it('fail on every deliberate violation in the fixture tree, and on nothing it allows', async () => {
    expect(await violations(fileURLToPath(new URL('fixtures/violations', import.meta.url)))).toEqual([
      'lower-layers-know-no-modules: src/http/auth.ts -> src/modules/beta/index.ts',
      'module-through-its-entry: src/modules/alpha/service.ts -> src/modules/beta/service.ts',
      'no-circular: src/modules/alpha/index.ts -> src/modules/alpha/service.ts',
      'outside-through-module-entry: src/web/page.ts -> src/modules/alpha/tables.ts',
      'resolvable: src/web/page.ts -> ./missing.ts',
      'tables-reference-only-columns: src/modules/alpha/tables.ts -> src/modules/beta/tables.ts',
    ]);
  });

  it('hold in src/', async () => {
    expect(await violations(root)).toEqual([]);
  });
});
