import { describe, expect, it } from 'vitest';
import { postgresLogBetween, slowestSecond } from '../../bench/slowest-second.ts';

/**
 * The webhook bench's account of a paced run's stall: which second of commits waited longest,
 * split into the queue (commit → the attempt's start) and the POST (start → arrival), and what
 * PostgreSQL's log says around it.
 */

const T = Date.UTC(2026, 11, 2, 15, 0, 0);

describe('slowestSecond', () => {
  it('picks the second whose worst delivery waited longest, and splits its waits by stage', () => {
    const second = slowestSecond([
      // Second 0: quick.
      { commit: T + 100, attempted: T + 110, arrival: T + 115 },
      { commit: T + 900, attempted: T + 905, arrival: T + 920 },
      // Second 1: one delivery waited 1.2 s in the queue.
      { commit: T + 1_000, attempted: T + 2_200, arrival: T + 2_210 },
      { commit: T + 1_500, attempted: T + 2_100, arrival: T + 2_130 },
      // Second 2: slow to send, but less in all.
      { commit: T + 2_000, attempted: T + 2_010, arrival: T + 2_900 },
    ]);
    expect(second).toEqual({
      from: T + 1_000,
      deliveries: 2,
      worstMs: 1_210,
      queue: { meanMs: 900, maxMs: 1_200 },
      send: { meanMs: 20, maxMs: 30 },
    });
  });

  it('has nothing to say of no deliveries', () => {
    expect(slowestSecond([])).toBeUndefined();
  });
});

describe('postgresLogBetween', () => {
  // PostgreSQL's default log_line_prefix '%m [%p] ', log_timezone UTC.
  const log = [
    '2026-12-02 14:59:58.001 UTC [101] LOG:  checkpoint starting: wal',
    '2026-12-02 15:00:01.250 UTC [101] LOG:  checkpoint complete: wrote 5120 buffers (31.2%); write=2.1 s, sync=0.9 s',
    '2026-12-02 15:00:01.300 UTC [207] LOG:  automatic vacuum of table "bench.public.webhook_deliveries": index scans: 1',
    '2026-12-02 15:00:01.400 UTC [207] LOG:  connection received: host=[local]',
    '2026-12-02 15:00:02.500 UTC [311] LOG:  process 311 still waiting for ShareLock on transaction 991 after 200.1 ms',
    '\tstatement: update webhook_deliveries set status = $1',
    '2026-12-02 15:00:09.000 UTC [101] LOG:  checkpoint starting: time',
  ].join('\n');

  it('keeps the lines within the window that tell of what can stall a transaction, with their times', () => {
    expect(postgresLogBetween(log, T, T + 3_000)).toEqual([
      {
        at: T + 1_250,
        line: '[101] LOG:  checkpoint complete: wrote 5120 buffers (31.2%); write=2.1 s, sync=0.9 s',
      },
      {
        at: T + 1_300,
        line: '[207] LOG:  automatic vacuum of table "bench.public.webhook_deliveries": index scans: 1',
      },
      { at: T + 2_500, line: '[311] LOG:  process 311 still waiting for ShareLock on transaction 991 after 200.1 ms' },
    ]);
  });

  it('finds nothing in a log without stamped lines', () => {
    expect(postgresLogBetween('no prefix here\n', T, T + 3_000)).toEqual([]);
  });
});
