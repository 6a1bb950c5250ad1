/**
 * `npm run bench`: how much authentication costs a cheap read.
 *
 * Starts the real service (`switchboard api`) as a child process on a temporary DATA_DIR
 * (embedded PostgreSQL), so the load generator and the server do not share an event loop,
 * then measures with autocannon at the same load:
 *   (a) GET /healthz        the bare route of the same server;
 *   (b) GET /v1/profiles    authenticated with the first owner key;
 *   (c) GET /v1/profiles?limit=100, once the owner has an agency's profiles (300: one a
 *       client), the same key: a full page of the list, where (b) is a page of one.
 * (a) and (b), whose ratio has the aim, are measured in turns (BENCH_TURNS rounds, each route
 * a share of the measured seconds in each), so that both meet the same moments of the
 * machine; (c) after them, alone.
 * Prints requests/s and p50/p99 latency of each, the ratio (b)/(a) and (c)/(a), and the aims
 * beside them (the aims are (b)'s; (c) shows what a page's size adds); then the CPU that the server, PostgreSQL, the load generator and everything else
 * used during each run (from /proc), because on a small machine they share the cores. A missed aim is reported, not an error; errors, timeouts and any response other
 * than 200 are (a bench of 401s measures nothing), and make the exit code 1.
 *
 * Settings (environment):
 *   BENCH_DURATION_SECONDS    measured seconds per route (default 10)
 *   BENCH_WARMUP_SECONDS      unmeasured warm-up before each route (default 3)
 *   BENCH_CONNECTIONS         concurrent connections (default 50)
 *   BENCH_TURNS               rounds in which (a) and (b) take turns (default 5: 2 s each a round)
 *   BENCH_AGENCY_PROFILES     the owner's profiles in (c) (default 300, the default profile included)
 *   BENCH_SERVER_NODE_ARGS    extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
 */
import os from 'node:os';
import { runBench } from './harness.ts';
import {
  busiestOutside,
  interrupt,
  type LoadSettings,
  loadCpuTable,
  type Measurement,
  measure,
  measureInTurns,
  preflight,
  type Target,
} from './load.ts';
import { met, outsideNote, positiveIntFromEnv, table } from './report.ts';
import { BenchError } from './server.ts';

const AIM_RATIO = 0.8;
const AIM_P99_MS = 20;

/** (c)'s page: the most a list answers (docs/api-conventions.md, pagination). */
const AGENCY_PAGE = 100;

interface Settings extends LoadSettings {
  turns: number;
  serverNodeArgs: string[];
  agencyProfiles: number;
}

function settings(): Settings {
  return {
    durationSeconds: positiveIntFromEnv('BENCH_DURATION_SECONDS', 10),
    warmupSeconds: positiveIntFromEnv('BENCH_WARMUP_SECONDS', 3),
    connections: positiveIntFromEnv('BENCH_CONNECTIONS', 50),
    turns: positiveIntFromEnv('BENCH_TURNS', 5),
    serverNodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    agencyProfiles: positiveIntFromEnv('BENCH_AGENCY_PROFILES', 300),
  };
}

function report(bare: Measurement, authed: Measurement, page: Measurement, s: Settings): string {
  const ratio = authed.requestsPerSecond / bare.requestsPerSecond;
  const pageRatio = page.requestsPerSecond / bare.requestsPerSecond;
  const ms = (n: number) => n.toFixed(2);
  const perRequest = (m: Measurement, cpuMs: number | undefined) =>
    cpuMs === undefined ? '-' : ((cpuMs * 1000) / m.responses).toFixed(0);
  const results = table(
    [
      ['route', 'requests/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'postgres CPU µs/req', 'responses'],
      ...[bare, authed, page].map((m) => [
        m.target.label,
        m.requestsPerSecond.toFixed(0),
        ms(m.p50),
        ms(m.p99),
        perRequest(m, m.cpu.server),
        perRequest(m, m.cpu.postgres),
        Object.entries(m.statusCodes)
          .map(([code, n]) => `${n} × ${code}`)
          .join(', '),
      ]),
    ],
    [false, true, true, true, true, true, false],
  );
  const aims = table(
    [
      ['aim', 'measured', ''],
      [`(b)/(a) requests/s at least ${AIM_RATIO}`, ratio.toFixed(3), met(ratio >= AIM_RATIO)],
      [
        `(b) p99 under ${AIM_P99_MS} ms at ${s.connections} connections`,
        `${ms(authed.p99)} ms`,
        met(authed.p99 < AIM_P99_MS),
      ],
    ],
    [false, true, false],
  );
  const cores = os.availableParallelism();
  const cpu = loadCpuTable([bare, authed, page], cores);
  const busiest = busiestOutside([bare, authed, page]);
  return [
    '',
    `Switchboard bench: ${s.connections} connections, ${s.durationSeconds} s per route after a ${s.warmupSeconds} s warm-up ((a) and (b) in ${s.turns} turns of ${s.durationSeconds / s.turns} s each), node ${process.version}, ${cores} CPUs`,
    '',
    results,
    '',
    `ratio (b)/(a) of requests/s: ${ratio.toFixed(3)}; (c)/(a): ${pageRatio.toFixed(3)} (no aim: a page of ${AGENCY_PAGE} of the owner's ${s.agencyProfiles} profiles)`,
    '',
    aims,
    '',
    cpu,
    ...outsideNote(busiest, 'requests/s and p99 move with that, CPU per request much less.'),
    '',
  ].join('\n');
}

/** Adds `count` profiles to the owner of `headers`' key, a few at a time, as an agency's clients. */
async function addProfiles(origin: string, headers: Record<string, string>, count: number): Promise<void> {
  process.stderr.write(`adding ${count} profiles ... `);
  const add = async (i: number) => {
    const response = await fetch(`${origin}/v1/profiles`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Client ${i}`, external_id: `bench-client-${i}` }),
    });
    if (response.status !== 201)
      throw new BenchError(`adding profile ${i}: ${response.status} ${await response.text()}`);
  };
  for (let i = 0; i < count; i += 10) {
    await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => add(i + j + 1)));
  }
  process.stderr.write('done\n');
}

process.exitCode = await runBench({
  name: 'http',
  settings,
  interrupt,
  measure: async ({ settings: s, dataDir, startService }) => {
    process.stderr.write(`starting the server (DATA_DIR ${dataDir}) ...\n`);
    const server = await startService({ nodeArgs: s.serverNodeArgs });
    process.stderr.write(`server pid ${server.pid} at ${server.origin}\n`);
    const bare: Target = { label: '(a) GET /healthz', path: '/healthz', headers: {} };
    const authed: Target = {
      label: '(b) GET /v1/profiles, owner key',
      path: '/v1/profiles',
      headers: { authorization: `Bearer ${server.ownerKey}` },
    };
    const page: Target = {
      label: `(c) GET /v1/profiles?limit=${AGENCY_PAGE}, ${s.agencyProfiles} profiles`,
      path: `/v1/profiles?limit=${AGENCY_PAGE}`,
      headers: authed.headers,
    };
    await preflight(server.origin, bare);
    await preflight(server.origin, authed);
    const [a, b] = await measureInTurns(server, [bare, authed], s, s.turns);
    if (!a || !b) throw new BenchError('measureInTurns answered fewer measurements than targets');
    // After (b), which measures the owner with its one default profile.
    await addProfiles(server.origin, authed.headers, s.agencyProfiles - 1);
    await preflight(server.origin, page);
    const c = await measure(server, page, s);
    return report(a, b, c, s);
  },
});
