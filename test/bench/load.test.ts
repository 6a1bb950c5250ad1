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

/** The paths in the order they took the receiver, each run of one path once. */
function runsOf(paths: readonly string[]): string[] {
  return paths.filter((p, i) => i === 0 || paths[i - 1] !== p);
}

const target = (name: string): Target => ({ label: name, path: `/${name}`, headers: {} });

describe('measureInTurns', () => {
  it("warms each target up, then runs them in turns, the order reversed every other round, and sums each one's shares", async () => {
    arrived.length = 0;
    const [a, b] = await measureInTurns(
      server,
      [target('a'), target('b')],
      { durationSeconds: 2, warmupSeconds: 1, connections: 2 },
      2,
    );
    // Warm-ups a, b; round one a, b; round two b, a: b's two shares meet with nothing between.
    expect(runsOf(arrived)).toEqual(['/a', '/b', '/a', '/b', '/a']);
    for (const [m, name] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
      if (m === undefined) throw new Error(`no measurement of ${name}`);
      expect(m.target.label).toBe(name);
      // Two shares of 1 s each.
      expect(m.seconds).toBeGreaterThanOrEqual(2);
      expect(m.seconds).toBeLessThan(4);
      expect(m.responses).toBeGreaterThan(0);
      expect(m.statusCodes).toEqual({ 200: m.responses });
      expect(m.requestsPerSecond).toBeCloseTo(m.responses / m.seconds);
      // Counted: what arrived, less the warm-up's; an answer still on its way at a share's end is not.
      const all = arrived.filter((p) => p === `/${name}`).length;
      expect(m.responses).toBeLessThanOrEqual(all);
      expect(m.p50).toBeGreaterThan(0);
      expect(m.p99).toBeGreaterThanOrEqual(m.p50);
      expect(m.cpu.bench).toBeGreaterThan(0);
      expect(m.cpu.postgres).toBeUndefined();
    }
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
