/**
 * Runs the Dockerfile's steps without Docker, where no image can be built (CI): each stage in
 * a directory of its own standing in for the image's file system, every COPY and RUN in order,
 * then the final stage's ENTRYPOINT and CMD, which must start, answer `/readyz`, serve the
 * built dashboard, and stop with exit code 0 on SIGTERM.
 *
 * What it cannot run is the base image itself. In its place it checks that the image is the
 * Node.js version the `node` devDependency pins, and runs every step on that version. An
 * instruction, flag or mount it does not know stops it, so the Dockerfile cannot grow past
 * what this runs.
 *
 * Usage: tsx scripts/dockerfile-steps.ts [--keep]   (--keep leaves the stages' directories)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DockerfileParser, type Instruction, type JSONInstruction } from 'dockerfile-ast';

const CONTEXT = path.resolve(import.meta.dirname, '..');
const KEEP = process.argv.includes('--keep');
/** The one build mount this runs: npm's download cache, which it maps to this machine's. */
const NPM_CACHE_MOUNT = 'type=cache,target=/root/.npm';

interface Stage {
  name: string;
  /** The directory standing in for the image's `/`. */
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string;
  entrypoint: string[];
  cmd: string[];
}

function fail(message: string): never {
  console.error(`dockerfile-steps: ${message}`);
  process.exit(1);
}

/** An image path (absolute, or relative to the WORKDIR) inside the stage's directory. */
function inStage(stage: Stage, p: string): string {
  return path.join(stage.root, path.posix.resolve(stage.workdir, p));
}

async function exists(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined)) !== undefined;
}

async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isDirectory() ?? false;
}

/** COPY's rules: a directory's contents go into the destination; a file goes into it when it is a directory. */
async function copy(sources: string[], dest: string, destIsDir: boolean): Promise<void> {
  for (const source of sources) {
    if (!(await exists(source))) fail(`COPY: ${source} does not exist`);
    if (await isDirectory(source)) {
      await cp(source, dest, { recursive: true });
    } else {
      const target = destIsDir || (await isDirectory(dest)) ? path.join(dest, path.basename(source)) : dest;
      await mkdir(path.dirname(target), { recursive: true });
      await cp(source, target);
    }
  }
}

/** The user's home in the image, as the base image's /etc/passwd has it. */
function home(stage: Stage): string {
  return path.join(stage.root, stage.user === 'root' ? 'root' : path.posix.join('home', stage.user));
}

function words(instruction: Instruction): string[] {
  return instruction.getArguments().map((a) => a.getValue());
}

function execForm(instruction: Instruction): string[] {
  const strings = (instruction as JSONInstruction).getJSONStrings();
  if (strings.length === 0) fail(`line ${line(instruction)}: ${instruction.getKeyword()} must be in exec form`);
  return strings.map((s) => s.getJSONValue());
}

function line(instruction: Instruction): number {
  return instruction.getRange().start.line + 1;
}

async function exitCode(child: ChildProcess): Promise<number | null> {
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') return fail('no free port');
  return address.port;
}

async function waitFor(url: string, child: ChildProcess, seconds: number): Promise<Response> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (child.exitCode !== null) fail(`the image's command exited (${child.exitCode}) before ${url} answered`);
    const answer = await fetch(url).catch(() => undefined);
    if (answer?.ok) return answer;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return fail(`${url} did not answer 200 within ${seconds} s`);
}

async function runStages(work: string, nodeBin: string, pinned: string): Promise<Stage> {
  const dockerfile = DockerfileParser.parse(await readFile(path.join(CONTEXT, 'Dockerfile'), 'utf8'));
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  const stages: Stage[] = [];
  let stage: Stage | undefined;

  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    const at = `line ${line(instruction)}: ${keyword}`;
    // The ARGs before the first FROM are read through the FROM lines' expansion.
    if (keyword === 'ARG' && !stage) continue;
    if (keyword === 'FROM') {
      const [image, as, name] = instruction.getExpandedArguments().map((a) => a.getValue());
      const version = /^node:(\d+\.\d+\.\d+)(-|$)/.exec(image ?? '')?.[1];
      if (version !== pinned) fail(`${at} ${image} is not node:${pinned}, the pinned \`node\``);
      const stageName = as?.toUpperCase() === 'AS' && name ? name : String(stages.length);
      stage = {
        name: stageName,
        root: path.join(work, stageName),
        workdir: '/',
        env: {},
        user: 'root',
        entrypoint: [],
        cmd: [],
      };
      await mkdir(home(stage), { recursive: true });
      stages.push(stage);
      console.log(`\n== stage ${stageName} (${image})`);
      continue;
    }
    const current = stage ?? fail(`${at} before FROM`);
    switch (keyword) {
      case 'WORKDIR':
        current.workdir = path.posix.resolve(current.workdir, instruction.getExpandedArguments()[0]?.getValue() ?? '');
        await mkdir(inStage(current, '.'), { recursive: true });
        break;
      case 'ENV':
        for (const property of dockerfile
          .getENVs()
          .find((e) => e === instruction)
          ?.getProperties() ?? []) {
          current.env[property.getName()] = property.getUnescapedValue() ?? '';
        }
        break;
      case 'COPY': {
        const copyInstruction = dockerfile.getCOPYs().find((c) => c === instruction);
        const flags = copyInstruction?.getFlags() ?? [];
        const unknown = flags.filter((f) => f.getName() !== 'from');
        if (unknown.length > 0) fail(`${at} --${unknown[0]?.getName()} is not handled`);
        const from = copyInstruction?.getFromFlag()?.getValue();
        const paths = words(instruction);
        const dest = paths.pop();
        if (!dest || paths.length === 0) fail(`${at} needs a source and a destination`);
        const source = from ? (stages.find((s) => s.name === from) ?? fail(`${at} no stage ${from}`)) : undefined;
        const sources = paths.map((p) => (source ? inStage(source, p) : path.join(CONTEXT, p)));
        console.log(`COPY ${instruction.getArgumentsContent()}`);
        await copy(sources, inStage(current, dest), dest.endsWith('/') || paths.length > 1);
        break;
      }
      case 'RUN': {
        const flags = (instruction as JSONInstruction).getFlags();
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          ...current.env,
          PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}`,
          HOME: home(current),
        };
        for (const flag of flags) {
          if (flag.getName() !== 'mount' || flag.getValue() !== NPM_CACHE_MOUNT) {
            fail(`${at} --${flag.getName()}=${flag.getValue()} is not handled`);
          }
          env.npm_config_cache = npmCache;
        }
        const script = words(instruction).join(' ');
        console.log(`RUN ${script}`);
        await mkdir(home(current), { recursive: true });
        const child = spawn('sh', ['-c', script], { cwd: inStage(current, '.'), env, stdio: 'inherit' });
        if ((await exitCode(child)) !== 0) fail(`${at} failed`);
        break;
      }
      case 'USER':
        current.user = instruction.getArgumentsContent()?.trim() ?? '';
        break;
      case 'ENTRYPOINT':
        current.entrypoint = execForm(instruction);
        break;
      case 'CMD':
        current.cmd = execForm(instruction);
        break;
      case 'EXPOSE':
      case 'VOLUME':
        break;
      default:
        fail(`${at} is not handled by this script`);
    }
  }
  return stages.at(-1) ?? fail('the Dockerfile has no FROM');
}

/** Starts the final stage's command on an embedded PostgreSQL, as `docker run` of the image would. */
async function runImage(final: Stage, work: string, nodeBin: string): Promise<void> {
  if (['root', '0', '0:0', ''].includes(final.user)) fail('the final stage runs as root');
  // What the lockfile marks as needed for development only (TypeScript is not: it is also an
  // optional peer of a production dependency, and npm keeps it).
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (entry.dev === true && (await exists(inStage(final, location)))) fail(`the final stage has ${location}`);
  }
  const [command, ...args] = [...final.entrypoint, ...final.cmd];
  if (!command) fail('the final stage has neither ENTRYPOINT nor CMD');
  const port = await freePort();
  console.log(`\n== the image's command: ${[command, ...args].join(' ')} (port ${port})`);
  const child = spawn(command, args, {
    cwd: inStage(final, '.'),
    env: {
      ...final.env,
      PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}`,
      HOME: home(final),
      DATA_DIR: path.join(work, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/readyz`, child, 180);
    const html = await (await waitFor(`${base}/dashboard`, child, 10)).text();
    if (!/<script[^>]+src=/.test(html)) fail('/dashboard answered without the built dashboard');
    console.log('/readyz and /dashboard answer');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  child.kill('SIGTERM');
  const code = await exitCode(child);
  if (code !== 0) fail(`the image's command exited ${code} on SIGTERM`);
}

const lock = JSON.parse(await readFile(path.join(CONTEXT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; dev?: boolean }>;
};
const pinned = lock.packages['node_modules/node']?.version ?? fail('package-lock.json pins no `node`');
const nodeBin = path.join(CONTEXT, 'node_modules', 'node', 'bin');
if (!(await exists(path.join(nodeBin, 'node')))) fail('run `npm ci` first: the pinned node is missing');
const work = await mkdtemp(path.join(tmpdir(), 'dockerfile-steps-'));
// As an image's `/` is: run as root, the embedded PostgreSQL runs as the `postgres` user, who
// must reach its binaries and DATA_DIR in here.
await chmod(work, 0o755);
console.log(`dockerfile-steps: the stages are under ${work}`);
await runImage(await runStages(work, nodeBin, pinned), work, nodeBin);
if (!KEEP) await rm(work, { recursive: true, force: true });
console.log('\ndockerfile-steps: every step ran; the image starts, answers and stops cleanly');
