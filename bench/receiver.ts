import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkUntilReady } from './fork-ready.ts';
import { BenchError } from './server.ts';

/**
 * The parent's side of the webhook receiver (bench/receiver-process.ts): starts it in a child
 * process and talks to it over the IPC channel, one request and one answer at a time.
 */

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'receiver-process.ts');

export type ParentMessage =
  | { type: 'secrets'; id: number; secrets: string[] }
  | { type: 'status'; id: number }
  | { type: 'reset'; id: number; baselineToo: boolean }
  | { type: 'dump'; id: number; file: string }
  | { type: 'stop' };

export interface ReceiverStatus {
  /** Requests to /d/<n> (service deliveries), duplicates included. */
  deliveries: number;
  /** Distinct Service-Delivery values among them. */
  distinct: number;
  /** Requests to /b/<n> (the baseline). */
  baseline: number;
  /** Epoch ms of the last delivery's arrival (NaN before the first). */
  lastDelivery: number;
}

export interface DumpSummary {
  deliveries: number;
  /** Deliveries whose Service-Signature did not verify with their endpoint's secret. */
  badSignatures: number;
  /** Deliveries whose body was not an envelope with an `id`. */
  badBodies: number;
  /** Requests that were neither a delivery nor a baseline POST. */
  malformed: number;
  baseline: number;
  baselineBadSignatures: number;
}

export type ReceiverMessage =
  | { type: 'ready'; port: number }
  | { type: 'ok'; id: number }
  | ({ type: 'status'; id: number } & ReceiverStatus)
  | { type: 'dumped'; id: number; summary: DumpSummary };

/** One line of the dump: a service delivery as it arrived. */
export interface Arrival {
  delivery: string;
  event: string;
  endpoint: number;
  /** Epoch milliseconds, with fractions. */
  at: number;
  signatureOk: boolean;
}

export function parseDump(text: string): Arrival[] {
  const arrivals: Arrival[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const [delivery = '', event = '', endpoint = '', at = '', ok = ''] = line.split('\t');
    arrivals.push({ delivery, event, endpoint: Number(endpoint), at: Number(at), signatureOk: ok === '1' });
  }
  return arrivals;
}

export class Receiver {
  private nextId = 1;
  private readonly waiting = new Map<number, (message: ReceiverMessage) => void>();

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly host: string,
  ) {
    child.on('message', (message: ReceiverMessage) => {
      if (message.type === 'ready') return;
      const resolve = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      resolve?.(message);
    });
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** `http://<host>:<port>/d/<endpoint>`: where endpoint number `endpoint` is served. */
  url(kind: 'd' | 'b', endpoint: number): string {
    return `http://${this.host}:${this.port}/${kind}/${endpoint}`;
  }

  /**
   * The receiver listens on 127.0.0.1; its URLs name it `host`, which must resolve there (a name
   * in place of the address makes every sender look it up, as for a receiver on the internet).
   */
  static async start(host = '127.0.0.1'): Promise<Receiver> {
    const { child, port } = await forkUntilReady(ENTRY, [], 'the receiver');
    return new Receiver(child, port, host);
  }

  private async ask<T extends ReceiverMessage['type']>(
    message: ParentMessage & { id: number },
    expect: T,
  ): Promise<Extract<ReceiverMessage, { type: T }>> {
    if (!this.child.connected) throw new BenchError('the receiver is gone');
    const answer = await new Promise<ReceiverMessage>((resolve, reject) => {
      this.waiting.set(message.id, resolve);
      this.child.send(message, (error) => {
        if (error) {
          this.waiting.delete(message.id);
          reject(error);
        }
      });
    });
    if (answer.type !== expect) throw new BenchError(`the receiver answered ${answer.type}, not ${expect}`);
    return answer as Extract<ReceiverMessage, { type: T }>;
  }

  async setSecrets(secrets: string[]): Promise<void> {
    await this.ask({ type: 'secrets', id: this.nextId++, secrets }, 'ok');
  }

  async status(): Promise<ReceiverStatus> {
    const { deliveries, distinct, baseline, lastDelivery } = await this.ask(
      { type: 'status', id: this.nextId++ },
      'status',
    );
    return { deliveries, distinct, baseline, lastDelivery: lastDelivery ?? Number.NaN };
  }

  /** Forgets the deliveries received so far (and the baseline's requests if `baselineToo`). */
  async reset(baselineToo: boolean): Promise<void> {
    await this.ask({ type: 'reset', id: this.nextId++, baselineToo }, 'ok');
  }

  /** Verifies the signatures and writes the deliveries to `file` (see parseDump). */
  async dump(file: string): Promise<DumpSummary> {
    return (await this.ask({ type: 'dump', id: this.nextId++, file }, 'dumped')).summary;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    if (this.child.connected) this.child.send({ type: 'stop' } satisfies ParentMessage);
    else this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
