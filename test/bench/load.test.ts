import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MeasuredServer, measureInTurns, type Target } from '../../bench/load.ts';

/**
 * Routes compared in turns (bench/load.ts): each warmed up, then rounds in which each runs its
 * share of the measured seconds, the order reversed every other round; each target's figures are
 * the sum of its shares.
 */

let receiver: http.Server;
let server: MeasuredServer;
let dataDir: string;
/** The path of every request that arrived, in order. */
const arrived: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    arrived.push(req.url ?? '');
    res.statusCode = req.url === '/refused' ? 503 : 200;
    res.end('{}');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  // No PostgreSQL under this data directory: the measurements carry no database's CPU.
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-load-test-'));
  server = { pid: process.pid, dataDir, origin: `http://127.0.0.1:${port}` };
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** The requests that arrived, as runs of one path each: its path and how many came in a row. */
function runsOf(paths: readonly string[]): { path: string; count: number }[] {
  const runs: { path: string; count: number }[] = [];
  for (const path of paths) {
    const last = runs.at(-1);
    if (last?.path === path) last.count += 1;
    else runs.push({ path, count: 1 });
  }
  return runs;
}

const target = (name: string): Target => ({ label: name, path: `/${name}`, headers: {} });

describe('measureInTurns', () => {
  it("warms each target up, then runs them in turns, the order reversed every other round, and sums each one's shares", async () => {
    arrived.length = 0;
    const connections = 2;
    const [a, b] = await measureInTurns(
      server,
      [target('a'), target('b')],
      { durationSeconds: 2, warmupSeconds: 1, connections },
      2,
    );
    // Warm-ups a, b; round one a, b; round two b, a: b's two shares meet with nothing between.
    const runs = runsOf(arrived);
    expect(runs.map((r) => r.path)).toEqual(['/a', '/b', '/a', '/b', '/a']);
    const measuredArrivals = { a: (runs[2]?.count ?? 0) + (runs[4]?.count ?? 0), b: runs[3]?.count ?? 0 };
    for (const [m, name] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
      if (m === undefined) throw new Error(`no measurement of ${name}`);
      expect(m.target.label).toBe(name);
      // Two shares of 1 s each (autocannon times them to a hundredth).
      expect(m.seconds).toBeGreaterThan(1.9);
      expect(m.seconds).toBeLessThan(4);
      expect(m.responses).toBeGreaterThan(0);
      expect(m.statusCodes).toEqual({ 200: m.responses });
      expect(m.requestsPerSecond).toBeCloseTo(m.responses / m.seconds);
      // Counted: every answer of its shares, none of the warm-up's; a share's requests still in
      // flight at its end (one a connection at most) arrived but are not counted.
      expect(m.responses).toBeLessThanOrEqual(measuredArrivals[name]);
      expect(m.responses).toBeGreaterThanOrEqual(measuredArrivals[name] - 2 * connections);
      expect(m.p50).toBeGreaterThan(0);
      expect(m.p99).toBeGreaterThanOrEqual(m.p50);
      expect(m.cpu.bench).toBeGreaterThan(0);
      expect(m.cpu.postgres).toBeUndefined();
    }
  });

  it('refuses turns that are not whole seconds (autocannon stops on a whole second)', async () => {
    arrived.length = 0;
    await expect(
      measureInTurns(server, [target('a')], { durationSeconds: 3, warmupSeconds: 1, connections: 1 }, 2),
    ).rejects.toThrow('3 measured seconds do not divide into 2 turns of whole seconds');
    // Refused before any load.
    expect(arrived).toEqual([]);
  });

  it('fails when a target answers anything but its status', async () => {
    await expect(
      measureInTurns(
        server,
        [target('a'), target('refused')],
        { durationSeconds: 1, warmupSeconds: 1, connections: 1 },
        1,
      ),
    ).rejects.toThrow(/refused: responses other than 200: \d+ × 503/);
  });
});
