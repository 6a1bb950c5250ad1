// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      /** The body of every request. */
      body?: string;
      pipelining?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      /** Requests made in turn by every connection. */
      requests?: Request[];
    }

    /** One request of `requests`; `setupRequest` may change it before each time it is sent. */
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    }

    /** Percentiles of a histogram, e.g. `p50`, `p99`; latencies in whole milliseconds. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      url: string;
      connections: number;
      /** Seconds the run took. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram & { totalCount: number };
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }

    interface Client extends EventEmitter {}

    /** The running benchmark: an EventEmitter that is also a promise of its result. */
    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
      on(event: 'response', listener: (client: Client, statusCode: number, bytes: number, ms: number) => void): this;
      on(event: 'reqError', listener: (error: Error) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
