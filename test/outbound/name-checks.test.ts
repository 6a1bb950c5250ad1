import { describe, expect, it } from 'vitest';
import { SharedNameChecks } from '../../src/outbound/name-checks.ts';

/**
 * A check whose every call waits until the test answers it (allowing the addresses it is given,
 * by default none), on a clock the test moves.
 */
function harness() {
  let clock = 0;
  const calls: { hostname: string; allow: (addresses?: string[]) => void; refuse: (error: Error) => void }[] = [];
  const checks = new SharedNameChecks<string[]>(
    (hostname) =>
      new Promise<string[]>((answer, refuse) => {
        calls.push({ hostname, allow: (addresses = []) => answer(addresses), refuse });
      }),
    () => clock,
  );
  const call = (i: number) => {
    const c = calls[i];
    if (c === undefined) throw new Error(`no check call ${i}`);
    return c;
  };
  return {
    checks,
    calls,
    call,
    at: (ms: number) => {
      clock = ms;
    },
  };
}

/** Whether `promise` has settled, after the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resume) => setImmediate(resume));
  return done;
}

describe('SharedNameChecks', () => {
  it('gives requests that start within 0.1 s of a check under way its answer', async () => {
    const h = harness();
    h.at(1000);
    const first = h.checks.ensure('hooks.example.test');
    h.at(1100);
    const second = h.checks.ensure('hooks.example.test');
    expect(h.calls).toHaveLength(1);
    expect(await settled(second)).toBe(false);
    h.call(0).allow();
    await expect(first).resolves.toBeUndefined();
    await expect(second).resolves.toBeUndefined();
  });

  it('checks again for a request that starts over 0.1 s after a check still under way', async () => {
    const h = harness();
    h.at(1000);
    const first = h.checks.ensure('hooks.example.test');
    h.at(1101);
    const second = h.checks.ensure('hooks.example.test');
    expect(h.calls.map((c) => c.hostname)).toEqual(['hooks.example.test', 'hooks.example.test']);
    h.call(1).allow();
    await expect(second).resolves.toBeUndefined();
    expect(await settled(first)).toBe(false);
    // The older check ends refused: the newer check's answer stays, and is reused.
    h.call(0).refuse(new Error('address not allowed: 10.0.0.5 is a private address'));
    await expect(first).rejects.toThrow('address not allowed');
    h.at(1200);
    const third = h.checks.ensure('hooks.example.test');
    expect(h.calls).toHaveLength(2);
    await expect(third).resolves.toBeUndefined();
  });

  it('reuses an older check that allowed the name while a newer one is under way, until the newer refuses', async () => {
    const h = harness();
    h.at(1000);
    const first = h.checks.ensure('hooks.example.test');
    h.at(1101);
    const second = h.checks.ensure('hooks.example.test');
    h.at(1120);
    h.call(0).allow();
    await first;
    h.at(1150);
    const meanwhile = h.checks.ensure('hooks.example.test');
    expect(h.calls).toHaveLength(2);
    expect(await settled(meanwhile)).toBe(true);
    await expect(meanwhile).resolves.toBeUndefined();
    h.at(1200);
    h.call(1).refuse(new Error('address not allowed: 10.0.0.5 is a private address'));
    await expect(second).rejects.toThrow('address not allowed');
    h.at(1210);
    const after = h.checks.ensure('hooks.example.test');
    expect(h.calls).toHaveLength(3);
    h.call(2).allow();
    await expect(after).resolves.toBeUndefined();
  });

  it('reuses an allowing answer for 1 s after it was given, then checks again', async () => {
    const h = harness();
    h.at(1000);
    const first = h.checks.ensure('hooks.example.test');
    h.at(1050);
    h.call(0).allow();
    await first;
    h.at(2050);
    const reused = h.checks.ensure('hooks.example.test');
    expect(h.calls).toHaveLength(1);
    await expect(reused).resolves.toBeUndefined();
    h.at(2051);
    const later = h.checks.ensure('hooks.example.test');
    expect(h.calls).toHaveLength(2);
    expect(await settled(later)).toBe(false);
    h.call(1).allow();
    await expect(later).resolves.toBeUndefined();
  });

  it('never reuses a refusal, and gives it to every request that shared the check', async () => {
    const h = harness();
    h.at(1000);
    const first = h.checks.ensure('private.example.test');
    const second = h.checks.ensure('private.example.test');
    h.call(0).refuse(new Error('address not allowed: 10.0.0.5 is a private address'));
    await expect(first).rejects.toThrow('address not allowed: 10.0.0.5 is a private address');
    await expect(second).rejects.toThrow('address not allowed: 10.0.0.5 is a private address');
    h.at(1001);
    const next = h.checks.ensure('private.example.test');
    expect(h.calls).toHaveLength(2);
    h.call(1).allow();
    await expect(next).resolves.toBeUndefined();
  });

  it('keeps the names of each check apart', async () => {
    const h = harness();
    const a = h.checks.ensure('a.example.test');
    const b = h.checks.ensure('b.example.test');
    expect(h.calls.map((c) => c.hostname)).toEqual(['a.example.test', 'b.example.test']);
    h.call(1).refuse(new Error('b does not resolve'));
    h.call(0).allow();
    await expect(a).resolves.toBeUndefined();
    await expect(b).rejects.toThrow('b does not resolve');
  });

  it('from 512 names on, drops those with no check under way and no allowing answer of the last second, at most once a second', async () => {
    const h = harness();
    h.at(0);
    const old = Array.from({ length: 510 }, (_, i) => h.checks.ensure(`n${i}.example.test`));
    for (let i = 0; i < 510; i++) h.call(i).allow();
    await Promise.all(old);
    h.at(4100);
    const recent = h.checks.ensure('recent.example.test');
    h.call(510).allow();
    await recent;
    h.at(4600);
    const pending = h.checks.ensure('pending.example.test');
    expect(h.checks.size).toBe(512);
    h.at(5000);
    const fresh = h.checks.ensure('fresh.example.test');
    // Kept: the answer of 0.9 s ago, the check under way, and the new name.
    expect(h.checks.size).toBe(3);
    const more = Array.from({ length: 509 }, (_, i) => h.checks.ensure(`m${i}.example.test`));
    expect(h.checks.size).toBe(512);
    h.at(5500);
    const another = h.checks.ensure('another.example.test');
    // Pruned 0.5 s ago: not again yet, though the answer of 4.1 s has grown too old to reuse.
    expect(h.checks.size).toBe(513);
    for (const c of h.calls.slice(511)) c.allow();
    await Promise.all([pending, fresh, ...more, another]);
  });

  it('gives a new connection a check under way that started at most 0.1 s before, with its addresses', async () => {
    const h = harness();
    h.at(1000);
    const attempt = h.checks.ensure('hooks.example.test');
    h.at(1050);
    const connection = h.checks.lookup('hooks.example.test');
    h.at(1100);
    const another = h.checks.lookup('hooks.example.test');
    expect(h.calls).toHaveLength(1);
    h.call(0).allow(['203.0.113.7']);
    await expect(attempt).resolves.toBeUndefined();
    await expect(connection).resolves.toEqual(['203.0.113.7']);
    await expect(another).resolves.toEqual(['203.0.113.7']);
  });

  it('has a new connection look the name up itself over 0.1 s after a check still under way', async () => {
    const h = harness();
    h.at(1000);
    const slow = h.checks.lookup('hooks.example.test');
    h.at(1101);
    const connection = h.checks.lookup('hooks.example.test');
    expect(h.calls).toHaveLength(2);
    h.call(1).allow(['203.0.113.8']);
    await expect(connection).resolves.toEqual(['203.0.113.8']);
    h.call(0).allow(['203.0.113.7']);
    await expect(slow).resolves.toEqual(['203.0.113.7']);
  });

  it('never gives a new connection an answer that has come, though attempts reuse it', async () => {
    const h = harness();
    h.at(1000);
    const first = h.checks.lookup('hooks.example.test');
    h.call(0).allow(['203.0.113.7']);
    await first;
    h.at(1001);
    // An attempt takes the connection's allowing answer of 1 ms ago; a new connection does not.
    await expect(h.checks.ensure('hooks.example.test')).resolves.toBeUndefined();
    expect(h.calls).toHaveLength(1);
    const connection = h.checks.lookup('hooks.example.test');
    expect(h.calls).toHaveLength(2);
    expect(await settled(connection)).toBe(false);
    h.call(1).refuse(new Error('address not allowed: 10.0.0.5 is a private address'));
    await expect(connection).rejects.toThrow('address not allowed: 10.0.0.5 is a private address');
  });
  it("lets a request share a new connection's check under way, then reuse its allowing answer", async () => {
    const h = harness();
    h.at(1000);
    const connection = h.checks.lookup('hooks.example.test');
    h.at(1050);
    const attempt = h.checks.ensure('hooks.example.test');
    expect(h.calls).toHaveLength(1);
    h.call(0).allow(['203.0.113.7']);
    await expect(connection).resolves.toEqual(['203.0.113.7']);
    await expect(attempt).resolves.toBeUndefined();
    h.at(2050);
    await expect(h.checks.ensure('hooks.example.test')).resolves.toBeUndefined();
    expect(h.calls).toHaveLength(1);
  });
});
