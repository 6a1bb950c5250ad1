/**
 * The webhook receiver of `bench/webhooks.ts`, in a process of its own so it does not share
 * an event loop with the load producer. Started by bench/receiver.ts (fork, IPC channel);
 * runs under Node's own TypeScript support (erasable syntax only, no tsx).
 *
 * Listens on 127.0.0.1 (port chosen by the system), answers every POST with 200 as soon as
 * its body is read, and records for each request: the path (`/d/<endpoint>` for service
 * deliveries, `/b/<endpoint>` for the baseline), the arrival time (epoch milliseconds, with
 * fractions, when the request's headers were parsed), the Service-Delivery and
 * Service-Signature headers, and the body. Signatures are verified only when the parent asks
 * for the records (`dump`), after the measured run, so verification costs no CPU during it.
 */
import fs from 'node:fs';
import http from 'node:http';
import { verifyWebhook } from '../src/index.ts';
import type { DumpSummary, ParentMessage, ReceiverMessage } from './receiver.ts';

interface Arrivals {
  endpoint: number[];
  at: number[];
  delivery: string[];
  signature: string[];
  body: string[];
  /** Requests that were not a POST to /d/<n> or /b/<n> with the headers a delivery has. */
  malformed: number;
  /** Distinct Service-Delivery values (service deliveries only). */
  distinct: Set<string>;
  first: number;
  last: number;
}

const empty = (): Arrivals => ({
  endpoint: [],
  at: [],
  delivery: [],
  signature: [],
  body: [],
  malformed: 0,
  distinct: new Set(),
  first: Number.NaN,
  last: Number.NaN,
});

let deliveries = empty();
let baseline = empty();
let secrets: string[] = [];

const epochMs = () => performance.timeOrigin + performance.now();
const PATH = /^\/([db])\/(\d+)$/;

const server = http.createServer((req, res) => {
  const at = epochMs();
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    res.writeHead(200, { 'content-length': '0' });
    res.end();
    const match = PATH.exec(req.url ?? '');
    const into = match?.[1] === 'd' ? deliveries : match?.[1] === 'b' ? baseline : undefined;
    const delivery = req.headers['service-delivery'];
    const signature = req.headers['service-signature'];
    if (req.method !== 'POST' || into === undefined || typeof delivery !== 'string' || typeof signature !== 'string') {
      deliveries.malformed += 1;
      return;
    }
    into.endpoint.push(Number(match?.[2]));
    into.at.push(at);
    into.delivery.push(delivery);
    into.signature.push(signature);
    into.body.push(Buffer.concat(chunks).toString('utf8'));
    if (into === deliveries) into.distinct.add(delivery);
    if (Number.isNaN(into.first)) into.first = at;
    into.last = at;
  });
});
// The service and the baseline keep their connections open between requests.
server.keepAliveTimeout = 60_000;

function send(message: ReceiverMessage): void {
  process.send?.(message);
}

/** Verifies every recorded request; writes the service deliveries to `file`, one per line. */
function dump(file: string): DumpSummary {
  const verify = (a: Arrivals, i: number) => {
    const secret = secrets[a.endpoint[i] ?? -1];
    const at = a.at[i] ?? 0;
    return (
      secret !== undefined &&
      verifyWebhook(a.body[i] ?? '', a.signature[i] ?? '', secret, { toleranceSeconds: 300, nowSeconds: at / 1000 })
    );
  };
  const lines: string[] = [];
  let badSignatures = 0;
  let badBodies = 0;
  for (let i = 0; i < deliveries.at.length; i++) {
    const ok = verify(deliveries, i);
    if (!ok) badSignatures += 1;
    let eventId = '';
    try {
      const parsed: unknown = JSON.parse(deliveries.body[i] ?? '');
      if (parsed !== null && typeof parsed === 'object' && 'id' in parsed && typeof parsed.id === 'string') {
        eventId = parsed.id;
      }
    } catch {
      // counted below
    }
    if (eventId === '') badBodies += 1;
    lines.push(
      `${deliveries.delivery[i]}\t${eventId}\t${deliveries.endpoint[i]}\t${deliveries.at[i]}\t${ok ? 1 : 0}\n`,
    );
  }
  fs.writeFileSync(file, lines.join(''));
  let baselineBadSignatures = 0;
  for (let i = 0; i < baseline.at.length; i++) if (!verify(baseline, i)) baselineBadSignatures += 1;
  return {
    deliveries: deliveries.at.length,
    badSignatures,
    badBodies,
    malformed: deliveries.malformed,
    baseline: baseline.at.length,
    baselineBadSignatures,
  };
}

process.on('message', (message: ParentMessage) => {
  switch (message.type) {
    case 'secrets':
      secrets = message.secrets;
      send({ type: 'ok', id: message.id });
      break;
    case 'status':
      send({
        type: 'status',
        id: message.id,
        deliveries: deliveries.at.length,
        distinct: deliveries.distinct.size,
        baseline: baseline.at.length,
        lastDelivery: deliveries.last,
      });
      break;
    case 'reset':
      deliveries = empty();
      if (message.baselineToo) baseline = empty();
      send({ type: 'ok', id: message.id });
      break;
    case 'dump':
      send({ type: 'dumped', id: message.id, summary: dump(message.file) });
      break;
    case 'stop':
      server.closeAllConnections();
      server.close(() => process.exit(0));
      break;
  }
});
// The parent gone (killed, crashed): nothing left to receive for.
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  send({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
});
