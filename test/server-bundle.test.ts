import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCurrent, projectMappingsOnly, serverBundle } from '../bin/server-bundle.js';

const run = promisify(execFile);

// A small project of its own: an entry, a TypeScript module that finds a file beside itself
// through import.meta.url (as the migrations and the dashboard are found), and a CommonJS
// module that does the same through __dirname (as some dependencies do).
let dir: string;
let outFile: string;
const entryOf = () => path.relative(process.cwd(), path.join(dir, 'entry.ts'));

async function load(
  bundle: string,
): Promise<{ version: string; beside: string; cjsBeside: string; metaUrl: string; ownDir: string }> {
  // A new URL each time: the module cache would otherwise answer the first bundle again.
  return (await import(`${pathToFileURL(bundle).href}?t=${Date.now()}-${Math.random()}`)).default;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-bundle-'));
  await fs.mkdir(path.join(dir, 'lib', 'data'), { recursive: true });
  await fs.writeFile(path.join(dir, 'lib', 'data', 'note.txt'), 'beside lib');
  await fs.writeFile(
    path.join(dir, 'lib', 'where.ts'),
    `import { readFileSync } from 'node:fs';
export const version: string = 'one';
export const metaUrl: string = import.meta.url;
export const beside: string = readFileSync(new URL('./data/note.txt', import.meta.url), 'utf8');
`,
  );
  await fs.writeFile(
    path.join(dir, 'lib', 'old.cjs'),
    `module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, 'data', 'note.txt'), 'utf8');\n`,
  );
  // An ES module that declares its own __dirname, as many do.
  await fs.writeFile(
    path.join(dir, 'lib', 'own-dirname.ts'),
    `import path from 'node:path';
import { fileURLToPath } from 'node:url';
const __dirname = path.dirname(fileURLToPath(import.meta.url));
export const ownDir: string = __dirname;
`,
  );
  await fs.writeFile(
    path.join(dir, 'entry.ts'),
    `import { beside, metaUrl, version } from './lib/where.ts';
import { ownDir } from './lib/own-dirname.ts';
import cjsBeside from './lib/old.cjs';
export default { version, beside, cjsBeside, metaUrl, ownDir };
`,
  );
  outFile = path.relative(process.cwd(), path.join(dir, 'out', 'bundle.mjs'));
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('the server bundle', () => {
  it('is built when missing, and each module in it finds the files beside its own source', async () => {
    const built = await serverBundle({ entry: entryOf(), outFile });
    expect(built).toEqual({ path: path.join(dir, 'out', 'bundle.mjs'), rebuilt: true });
    const loaded = await load(built.path);
    expect(loaded).toEqual({
      version: 'one',
      beside: 'beside lib',
      cjsBeside: 'beside lib',
      metaUrl: pathToFileURL(path.join(dir, 'lib', 'where.ts')).href,
      ownDir: path.join(dir, 'lib'),
    });
    expect(isCurrent({ outFile })).toBe(true);
  });

  it('is taken as it is while its sources are unchanged', async () => {
    const before = await fs.stat(path.join(dir, 'out', 'bundle.mjs'));
    expect(await serverBundle({ entry: entryOf(), outFile })).toMatchObject({ rebuilt: false });
    expect((await fs.stat(path.join(dir, 'out', 'bundle.mjs'))).mtimeMs).toBe(before.mtimeMs);
  });

  it('is built again when a source it holds changes, and then runs the change', async () => {
    const where = path.join(dir, 'lib', 'where.ts');
    await fs.writeFile(where, (await fs.readFile(where, 'utf8')).replace("'one'", "'two'"));
    expect(isCurrent({ outFile })).toBe(false);
    const built = await serverBundle({ entry: entryOf(), outFile });
    expect(built.rebuilt).toBe(true);
    expect((await load(built.path)).version).toBe('two');
    expect(await serverBundle({ entry: entryOf(), outFile })).toMatchObject({ rebuilt: false });
  });

  it('is built again when it does not carry the digest of its sources (a bundle from elsewhere, or cut short)', async () => {
    const bundle = path.join(dir, 'out', 'bundle.mjs');
    await fs.writeFile(bundle, 'export default {};\n');
    const built = await serverBundle({ entry: entryOf(), outFile });
    expect(built.rebuilt).toBe(true);
    expect((await load(built.path)).version).toBe('two');
  });

  it("still finds each module's files when the tree is moved with it (an image copies it from its build stage)", async () => {
    const moved = `${dir}-moved`;
    await fs.cp(dir, moved, { recursive: true });
    try {
      await fs.writeFile(path.join(moved, 'lib', 'data', 'note.txt'), 'beside the moved lib');
      expect(await load(path.join(moved, 'out', 'bundle.mjs'))).toEqual({
        version: 'two',
        beside: 'beside the moved lib',
        cjsBeside: 'beside the moved lib',
        metaUrl: pathToFileURL(path.join(moved, 'lib', 'where.ts')).href,
        ownDir: path.join(moved, 'lib'),
      });
    } finally {
      await fs.rm(moved, { recursive: true, force: true });
    }
  });

  it('leaves no temporary file behind', async () => {
    expect((await fs.readdir(path.join(dir, 'out'))).sort()).toEqual([
      'bundle.mjs',
      'bundle.mjs.files.json',
      'bundle.mjs.map',
    ]);
  });
});

describe("the bundle's names", () => {
  it("are the sources' own: a class renamed where two modules share its name, a function made at each call, an arrow named by its variable", async () => {
    const project = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-bundle-names-'));
    try {
      // Two modules with a class of the same name: one is renamed in the bundle's one scope.
      for (const side of ['left', 'right']) {
        await fs.writeFile(
          path.join(project, `${side}.ts`),
          `export class Failure extends Error {}\nexport const made = (): Error => new Failure('${side}');\n`,
        );
      }
      await fs.writeFile(
        path.join(project, 'entry.ts'),
        `import * as left from './left.ts';
import * as right from './right.ts';
export function outer(): () => string {
  function inner(): string { return 'in'; }
  return inner;
}
export const arrow = (): number => 1;
export default { left: left.made().constructor.name, right: right.made().constructor.name };
`,
      );
      const out = path.relative(process.cwd(), path.join(project, 'out', 'bundle.mjs'));
      const built = await serverBundle({
        entry: path.relative(process.cwd(), path.join(project, 'entry.ts')),
        outFile: out,
      });
      const text = await fs.readFile(built.path, 'utf8');
      // The renaming this is about happened: the bundle holds one class under another name.
      expect(text).toMatch(/var Failure2 = class extends Error/);
      const loaded = await import(`${pathToFileURL(built.path).href}?t=${Date.now()}`);
      expect(loaded.default).toEqual({ left: 'Failure', right: 'Failure' });
      expect([loaded.outer().name, loaded.outer().name, loaded.arrow.name]).toEqual(['inner', 'inner', 'arrow']);
    } finally {
      await fs.rm(project, { recursive: true, force: true });
    }
  });
});

describe("the bundle's source map", () => {
  it("keeps the project's mappings and drops the bundled packages' (Node.js parses the whole map at the first stack trace)", () => {
    // Generated line 0: a column of src/a.ts, one of a package, one mapped to no source;
    // line 1: a package's only; line 2: an unmapped column, then src/b.ts.
    // Segments: [column] (no source from there) or [column, source, line, column(, name)].
    const map = {
      version: 3,
      sources: ['../../src/a.ts', '../../node_modules/pkg/index.js', '../../src/b.ts'],
      names: ['f'],
      mappings: encode([[[0, 0, 3, 2], [10, 1, 7, 0, 0], [20]], [[0, 1, 8, 4]], [[0], [4, 2, 0, 0, 0]]]),
    };
    const kept = JSON.parse(projectMappingsOnly(JSON.stringify(map)));
    // The package's column maps to no source, so src/a.ts's mapping ends where the package's code begins.
    expect(decode(kept.mappings)).toEqual([[[0, 0, 3, 2], [10]], [], [[4, 2, 0, 0, 0]]]);
    expect(kept.sources).toEqual(map.sources);
    expect(kept.names).toEqual(map.names);
  });

  it("maps a stack trace through the project's files to their sources, and holds no package's mapping", async () => {
    const root = path.resolve(import.meta.dirname, '..');
    const project = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-bundle-map-'));
    try {
      await fs.writeFile(
        path.join(project, 'fails.ts'),
        `// The error is made on line 3.
export function fails(): Error {
  return new Error('made here');
}
`,
      );
      // A bundled package (by its path, the project being outside the repository).
      const pkg = path.join(root, 'node_modules', 'range-parser', 'index.js');
      await fs.writeFile(
        path.join(project, 'entry.ts'),
        `import rangeParser from ${JSON.stringify(pkg)};
import { fails } from './fails.ts';
export default () => ({ stack: fails().stack, ranges: rangeParser(100, 'bytes=0-9') });
`,
      );
      const built = await serverBundle({
        entry: path.relative(process.cwd(), path.join(project, 'entry.ts')),
        outFile: path.relative(process.cwd(), path.join(project, 'out', 'bundle.mjs')),
      });
      const written = JSON.parse(await fs.readFile(`${built.path}.map`, 'utf8')) as {
        sources: string[];
        mappings: string;
      };
      const mapped = new Set(
        decode(written.mappings).flatMap((line) => line.flatMap((s) => (s.length > 1 ? [s[1]] : []))),
      );
      const mappedSources = [...mapped].map((i) => written.sources[i as number] ?? '');
      expect(written.sources.some((s) => s.includes('node_modules/range-parser/'))).toBe(true);
      expect(mappedSources.filter((s) => s.includes('node_modules/'))).toEqual([]);
      expect(mappedSources.some((s) => s.endsWith('fails.ts'))).toBe(true);

      // As bin/start.js runs the bundle: with source maps on.
      const { stdout } = await run(process.execPath, [
        '--enable-source-maps',
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(pathToFileURL(built.path).href)}); const r = m.default(); console.log(JSON.stringify({ top: r.stack.split('\\n')[1].trim(), ranges: r.ranges.length }));`,
      ]);
      const answer = JSON.parse(stdout) as { top: string; ranges: number };
      expect(answer.ranges).toBe(1);
      expect(answer.top).toMatch(/fails\.ts:3:\d+\)$/);
    } finally {
      await fs.rm(project, { recursive: true, force: true });
    }
  });
});
