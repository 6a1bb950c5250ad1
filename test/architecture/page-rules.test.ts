import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The rules Biome holds the hosted pages to (biome.json, checked by `npm run check`): no markup
 * in a string in the pages' files (lint/pages-write-no-markup.grit), no value put into a page
 * as HTML (noDangerouslySetInnerHtml), and no browser global in src/, which the compiler knows
 * from Preact's JSX types (noRestrictedGlobals). Run with the project's own configuration on a
 * fixture tree that breaks each on purpose (test/architecture/fixtures/pages), copied where
 * the project's file list does not leave it out.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

interface BiomeReport {
  diagnostics: { category: string; location: { path: string; start: { line: number } } }[];
}

async function findings(fixture: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'switchboard-page-rules-'));
  try {
    await cp(fixture, dir, { recursive: true });
    const config = JSON.parse(await readFile(path.join(root, 'biome.json'), 'utf8'));
    delete config.$schema;
    config.plugins = config.plugins.map((plugin: { path: string }) => ({
      ...plugin,
      path: path.join(root, plugin.path),
    }));
    await writeFile(path.join(dir, 'biome.json'), JSON.stringify(config));
    const biome = path.join(root, 'node_modules/.bin/biome');
    const stdout = await promisify(execFile)(biome, ['lint', '--reporter=json', '--max-diagnostics=none', '.'], {
      cwd: dir,
    }).then(
      (done) => done.stdout,
      (failed: { stdout?: string }) => failed.stdout ?? '',
    );
    const report = JSON.parse(stdout) as BiomeReport;
    return report.diagnostics.map((d) => `${d.category}: ${d.location.path}:${d.location.start.line}`).sort();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("the hosted pages' rules", () => {
  it('fail on every deliberate violation in the fixture tree, and on nothing it allows', async () => {
    expect(await findings(fileURLToPath(new URL('fixtures/pages', import.meta.url)))).toEqual([
      'lint/security/noDangerouslySetInnerHtml: src/web/raw-html.tsx:2',
      'lint/style/noRestrictedGlobals: src/web/browser-globals.ts:2',
      'plugin: src/sandbox/authorize-dialog.ts:2',
      'plugin: src/web/markup-in-strings.ts:2',
      'plugin: src/web/markup-in-strings.ts:3',
      'plugin: src/web/markup-in-strings.ts:4',
      'plugin: src/web/markup-in-strings.ts:4',
    ]);
  });
});
