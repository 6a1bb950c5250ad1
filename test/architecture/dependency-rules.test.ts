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
      'lower-layers-reach-no-module: src/http/auth.ts -> src/modules/delta/index.ts',
      'lower-layers-reach-no-module: src/jobs/queue.ts -> src/modules/delta/index.ts',
      'lower-layers-reach-no-module: src/platforms/adapter.ts -> src/modules/delta/index.ts',
      'module-through-its-entry: src/modules/alpha/service.ts -> src/modules/beta/service.ts',
      'no-circular: src/modules/alpha/index.ts -> src/modules/alpha/service.ts',
      'outside-through-module-entry: src/app.ts -> src/modules/alpha/tables.ts',
      'resolvable: src/web/page.ts -> ./missing.ts',
      'tables-reference-only-columns: src/modules/alpha/tables.ts -> src/modules/beta/tables.ts',
      'web-renders-pages-only: src/web/notices.ts -> src/modules/gamma/index.ts',
    ]);
  });

  it('hold in src/', async () => {
    expect(await violations(root)).toEqual([]);
  });
});
