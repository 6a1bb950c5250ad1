import { describe, expect, it } from 'vitest';
import { machineCpuLine, machineMs } from '../../bench/cpu.ts';

/**
 * What a bench prints of a run's aim against the machine's CPU: a run's rate is the CPU it used a
 * second over its CPU a unit, so the aim's rate at the same CPU a second leaves each unit that CPU
 * over the aim's rate.
 */

const names = ['server', 'postgres'] as const;

describe('machineMs', () => {
  it("adds the named processes', the bench's and the other processes' CPU", () => {
    expect(machineMs(names, { server: 20_000, postgres: 25_000, bench: 7_000, others: 1_600, wallMs: 30_000 })).toBe(
      53_600,
    );
  });

  it("is unknown when the machine's busy time was not read, and counts an unread process as none", () => {
    expect(machineMs(names, { server: 1, postgres: 1, bench: 1, others: undefined, wallMs: 1 })).toBeUndefined();
    expect(machineMs(names, { server: undefined, postgres: 2, bench: 3, others: 4, wallMs: 1 })).toBe(9);
  });
});

describe('machineCpuLine', () => {
  const unit = { name: 'delivery', scale: 1000, label: 'µs', digits: 0 };

  it("prints each run's CPU a unit and how busy it kept the machine, and what the aim's rate allows", () => {
    // 61.6 s of CPU over 200,000 deliveries at 6,000/s: 308 µs a delivery, 1,848 ms of CPU a second
    // (185% of one core); at that CPU a second, 12,600 deliveries/s leave 146.7 µs each.
    const line = machineCpuLine(
      { label: '(b)', machineMs: 61_600, units: 200_000, perSecond: 6_000 },
      [{ label: '(a3)', machineMs: 23_200, units: 200_000, perSecond: 13_000 }],
      { rate: 12_600, what: "0.6 of (a)'s rate" },
      unit,
      2,
    );
    expect(line).toBe(
      "the machine's CPU, all processes: (b) 308 µs a delivery, 185% of 200% busy; (a3) 116 µs a delivery, 151% of 200% busy; as busy as (b) was, 0.6 of (a)'s rate allows 147 µs a delivery",
    );
  });

  it('prints milliseconds a unit, to the digits asked, at a scale of one', () => {
    // 13.3 s of CPU over 1,000 targets at 135.5/s: 13.3 ms a target, 1,802 ms of CPU a second
    // (180% of one core); at that CPU a second, 140.6 targets/s leave 12.8 ms each.
    const line = machineCpuLine(
      { label: 'one worker', machineMs: 13_300, units: 1_000, perSecond: 135.5 },
      [{ label: 'the floor', machineMs: 8_900, units: 1_000, perSecond: 175.8 }],
      { rate: 140.64, what: "0.8 of the floor's rate" },
      { name: 'target', scale: 1, label: 'ms', digits: 1 },
      2,
    );
    expect(line).toBe(
      "the machine's CPU, all processes: one worker 13.3 ms a target, 180% of 200% busy; the floor 8.9 ms a target, 156% of 200% busy; as busy as one worker was, 0.8 of the floor's rate allows 12.8 ms a target",
    );
  });

  it("prints nothing when any run's CPU is unknown", () => {
    const known = { label: 'known', machineMs: 1_000, units: 10, perSecond: 10 };
    const unknown = { label: 'unknown', machineMs: undefined, units: 10, perSecond: 10 };
    const aim = { rate: 5, what: 'half' };
    expect(machineCpuLine(known, [unknown], aim, unit, 2)).toBeUndefined();
    expect(machineCpuLine(unknown, [known], aim, unit, 2)).toBeUndefined();
  });
});
