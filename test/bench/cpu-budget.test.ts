import { describe, expect, it } from 'vitest';
import {
  machineCpuLine,
  machineMs,
  parseRunQueue,
  runQueueBetween,
  sumCpuUse,
  sumNamedCpuUse,
  workersRunCpuSample,
} from '../../bench/cpu.ts';
import { speedMoved } from '../../bench/report.ts';

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

describe('sumNamedCpuUse', () => {
  it("adds two runs' CPU as one run's: each process's, the bench's, the others' and the wall time", () => {
    expect(
      sumNamedCpuUse(
        names,
        { server: 1_000, postgres: 2_000, bench: 300, others: 40, wallMs: 5_000 },
        { server: 1_500, postgres: 500, bench: 200, others: 10, wallMs: 6_000 },
      ),
    ).toEqual({ server: 2_500, postgres: 2_500, bench: 500, others: 50, wallMs: 11_000 });
  });

  it('is unknown for a process, or the others, unread in either run', () => {
    expect(
      sumNamedCpuUse(
        names,
        { server: undefined, postgres: 2, bench: 3, others: 4, wallMs: 5 },
        { server: 1, postgres: 2, bench: 3, others: undefined, wallMs: 5 },
      ),
    ).toEqual({ server: undefined, postgres: 4, bench: 6, others: undefined, wallMs: 10 });
  });
});

describe('sumCpuUse', () => {
  it("adds two runs' CPU as one run's, unknown where either run's is", () => {
    expect(
      sumCpuUse(
        { server: 100, postgres: undefined, bench: 7, others: 3, capacity: 2_000 },
        { server: 50, postgres: 20, bench: 5, others: 1, capacity: 4_000 },
      ),
    ).toEqual({ server: 150, postgres: undefined, bench: 12, others: 4, capacity: 6_000 });
  });
});

describe('speedMoved', () => {
  it('is the later rate as a multiple of the earlier one where they differ by more than a tenth', () => {
    expect(speedMoved(13_586, 10_713)).toBeCloseTo(0.7885, 4);
    expect(speedMoved(100, 112)).toBeCloseTo(1.12, 4);
    expect(speedMoved(100, 91)).toBeUndefined();
    expect(speedMoved(100, 109)).toBeUndefined();
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

describe('parseRunQueue', () => {
  // As Linux writes them: schedstat is the time on a core, the time waiting for one (ns) and the timeslices.
  const status = 'Name:\tnode\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t812\nnonvoluntary_ctxt_switches:\t96\n';

  it("reads the run-queue wait (schedstat's second field) and the preemptions (not the voluntary switches)", () => {
    expect(parseRunQueue('272108060 41131370 1506\n', status)).toEqual({ waitMs: 41.13137, preempted: 96 });
  });

  it('is unknown where either file is not as the kernel writes it', () => {
    expect(parseRunQueue('272108060 41131370\n', status)).toBeUndefined();
    expect(parseRunQueue('', status)).toBeUndefined();
    expect(parseRunQueue('272108060 41131370 1506\n', 'voluntary_ctxt_switches:\t812\n')).toBeUndefined();
  });
});

describe('runQueueBetween', () => {
  const q = (waitMs: number, preempted: number) => ({ waitMs, preempted });

  it("is what each main thread's run queue grew by, PostgreSQL's summed over the processes alive at both samples", () => {
    const before = {
      api: q(100, 40),
      workers: q(50, 10),
      bench: q(5, 2),
      // 303 exits before the second sample: what it waited since the first is not known.
      postgres: new Map([
        ['301@5100', q(10, 1)],
        ['302@5102', q(20, 2)],
        ['303@5103', q(30, 3)],
      ]),
    };
    const after = {
      api: q(160, 52),
      workers: q(80, 15),
      bench: q(6, 2),
      // 304 started between the samples: counted from neither.
      postgres: new Map([
        ['301@5100', q(14, 3)],
        ['302@5102', q(27, 2)],
        ['304@5200', q(9, 9)],
      ]),
    };
    expect(runQueueBetween(before, after)).toEqual({
      api: q(60, 12),
      workers: q(30, 5),
      bench: q(1, 0),
      postgres: q(11, 2),
    });
  });

  it('is unknown for a process whose /proc could not be read at either sample', () => {
    const read = { api: q(1, 1), workers: q(1, 1), bench: q(1, 1), postgres: new Map([['1', q(1, 1)]]) };
    const unread = { api: undefined, workers: undefined, bench: undefined, postgres: undefined };
    // Unknown where either sample is: every figure as unread as the sample that was.
    expect(runQueueBetween(unread, read)).toEqual(unread);
    expect(runQueueBetween(read, unread)).toEqual(unread);
  });
});

describe('workersRunCpuSample', () => {
  it("reads a live process's run queue from /proc, and none of a process that is gone", async () => {
    const own = await workersRunCpuSample({ api: process.pid, postmaster: undefined, workers: [process.pid] });
    expect(own.queues.api?.waitMs).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(own.queues.api?.preempted)).toBe(true);
    // Pids go up to 2^22 on Linux: this one is never in use.
    const gone = await workersRunCpuSample({ api: 2 ** 23, postmaster: undefined, workers: [process.pid, 2 ** 23] });
    expect(gone.queues.api).toBeUndefined();
    expect(gone.queues.workers).toBeUndefined();
  });
});
