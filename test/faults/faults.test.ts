/**
 * `npm run test:faults`: two API and two worker processes on a PostgreSQL server of the test's
 * own, under a steady load of API writes, posts and their events, through faults. After each:
 * every write answered 2xx is stored, no target stays unfinished, none is published twice (the
 * sandbox's own log of publications), and every event is delivered at least once (rig.ts,
 * `check`). The counts are printed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Rig, startRig, type Tally } from './rig.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let rig: Rig;

beforeAll(async () => {
  rig = await startRig();
  await rig.start(['api']);
  await rig.start(['worker']);
  await rig.start(['worker']);
});
// A test that fails midway leaves its load running; the next one must not inherit it.
afterEach(async () => {
  await rig?.stopLoads();
});
afterAll(async () => {
  await rig?.close();
});

function report(fault: string, tally: Tally): void {
  console.log(`${fault}: ${JSON.stringify(tally)}`);
}

describe('under faults', () => {
  it('PostgreSQL stopped for 15 s: the API answers 503 in the error shape, never a 500 or a hang, and every process recovers by itself', async () => {
    const stop = rig.load(4);
    await sleep(5_000);
    await rig.stopDatabase();
    const downFrom = rig.answers.length;
    await sleep(15_000);
    await rig.startDatabase();
    const upFrom = rig.answers.length;
    await sleep(15_000);
    await stop();
    const whileDown = rig.answers.slice(downFrom, upFrom);
    expect(whileDown.filter((a) => a.status === 503).length).toBeGreaterThan(10);
    expect(new Set(whileDown.filter((a) => a.status === 503).map((a) => a.code))).toEqual(
      new Set(['database_unavailable']),
    );
    // Never a 500, never a request without an answer, and none held past the 10 s wait for a connection.
    expect(rig.answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    expect(rig.answers.filter((a) => a.status === 0)).toEqual([]);
    expect(Math.max(...rig.answers.map((a) => a.ms))).toBeLessThan(15_000);
    // Recovered: the last seconds' writes all went through.
    expect(rig.answers.slice(-10).map((a) => a.status)).toEqual(Array(10).fill(201));
    const tally = await rig.check();
    report('PostgreSQL stopped for 15 s', tally);
    expect(tally.published).toBeGreaterThan(0);
  });

  it('both workers SIGKILLed mid-publish and mid-delivery, then started again: nothing lost, nothing published twice', async () => {
    const publication = rig.sandbox.hold(/\/threads_publish$/);
    let delivering: (() => void) | undefined;
    const inFlight = new Promise<void>((resolve) => {
      delivering = resolve;
    });
    const answer = rig.receiver.respond;
    // The next delivery is taken and never answered: it is in flight when its worker dies.
    rig.receiver.respond = () => {
      rig.receiver.respond = answer;
      delivering?.();
    };
    const from = rig.answers.length;
    const stop = rig.load(3);
    await Promise.all([publication.arrived, inFlight]);
    const workers = rig.roles.filter((r) => r.args[0] === 'worker' && r.process.exit === undefined);
    expect(workers).toHaveLength(2);
    for (const w of workers) await w.process.stop('SIGKILL');
    // The platform goes on with the publication the dead worker asked for.
    publication.release();
    await sleep(3_000);
    await rig.start(['worker']);
    await rig.start(['worker']);
    await sleep(10_000);
    await stop();
    // A dead worker's jobs wait until a living one finds it gone (at its start, then every 30 s),
    // and a publish it had claimed until the claim is two minutes old.
    const tally = await rig.check(180);
    report('workers SIGKILLed mid-publish and mid-delivery', tally);
    // The API processes were not touched: every write was answered.
    expect(rig.answers.slice(from).filter((a) => a.status < 200 || a.status >= 300)).toEqual([]);
  });

  it('the platform answers 500, then 429, then recovers: every post is published once, after its retries', async () => {
    // Each account's next two publications are refused: a server error, then a rate limit.
    for (const account of rig.accounts) {
      for (const [status, error] of [
        [500, { message: 'An unexpected error has occurred. Please retry your request later.', code: 2 }],
        [429, { message: 'Too many requests.' }],
      ] as const) {
        const res = await rig.sandbox.control('POST', '/faults', {
          platform: 'threads',
          username: account.username,
          error: 'custom',
          status,
          body: { error },
          trigger: 'publish',
        });
        expect(res.status).toBe(201);
      }
    }
    const from = rig.answers.length;
    const stop = rig.load(3);
    await sleep(4_000);
    await stop();
    expect(rig.answers.slice(from).filter((a) => a.status !== 201)).toEqual([]);
    // Asked again once the claim of the publish that met the 500 has passed (two minutes: the post
    // may still have been being made), then after the rate limit's minute.
    const tally = await rig.check(300);
    report('the platform answering 500, then 429', tally);
    // Every refusal was met, as the shared metrics of the worker processes count them.
    const api = rig.roles.find((r) => r.base !== undefined && r.process.exit === undefined);
    await sleep(11_000);
    const metrics = await (await fetch(`${api?.base}/metrics`)).text();
    const count = (result: string) =>
      Number(
        new RegExp(`^switchboard_platform_calls_total\\{platform="threads",result="${result}"\\} (\\d+)$`, 'm').exec(
          metrics,
        )?.[1] ?? 0,
      );
    expect(count('server_error')).toBeGreaterThanOrEqual(rig.accounts.length);
    expect(count('rate_limited')).toBeGreaterThanOrEqual(rig.accounts.length);
  }, 420_000);

  it('the webhook receiver refuses for a minute, then comes back: every event is delivered, by its retry a minute after', async () => {
    const answer = rig.receiver.respond;
    const refusedUntil = Date.now() + 60_000;
    let refusals = 0;
    // Decided by the receiver's own clock: a retry comes a minute after its refusal (the
    // spec's first retry), so never inside the minute.
    rig.receiver.respond = (req, res) => {
      if (Date.now() >= refusedUntil) {
        answer(req, res);
        return;
      }
      refusals += 1;
      // Alternately an error status and a connection dropped without an answer.
      if (refusals % 2 === 0) req.socket.destroy();
      else res.writeHead(503).end('unavailable');
    };
    const from = rig.answers.length;
    const stop = rig.load(3);
    await sleep(10_000);
    await stop();
    await sleep(refusedUntil - Date.now());
    const tally = await rig.check(180);
    report('the webhook receiver refusing for a minute', tally);
    rig.receiver.respond = answer;
    expect(refusals).toBeGreaterThan(10);
    expect(rig.answers.slice(from).filter((a) => a.status !== 201)).toEqual([]);
  });

  it('the single serve process SIGKILLed and started again: nothing lost, nothing published twice', async () => {
    for (const role of rig.roles) if (role.process.exit === undefined) await role.process.stop('SIGTERM');
    const serve = await rig.start(['serve']);
    const from = rig.answers.length;
    const stop = rig.load(3);
    await sleep(6_000);
    await serve.process.stop('SIGKILL');
    const downFrom = rig.answers.length;
    await sleep(2_000);
    await rig.start(['serve']);
    await sleep(10_000);
    await stop();
    // While it was dead, requests went unanswered (status 0): nothing was promised to them.
    expect(rig.answers.slice(downFrom).some((a) => a.status === 201)).toBe(true);
    const tally = await rig.check(180);
    report('serve SIGKILLed', tally);
    // Requests cut off by the kill have no answer (0); every answered one went through.
    expect(rig.answers.slice(from).filter((a) => a.status !== 0 && a.status !== 201)).toEqual([]);
  });
});
