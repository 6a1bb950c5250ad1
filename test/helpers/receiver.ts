import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  /** The raw body bytes, as sent. */
  body: Buffer;
  path: string;
  /** The status answered, once the answer has gone out; never set for a request dropped unanswered. */
  status?: number;
}

/** A real webhook receiver on 127.0.0.1: records every request and answers with `respond`. */
export interface Receiver {
  url: string;
  received: Received[];
  connections: number;
  respond: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  /** Resolves once `n` requests have arrived (fails after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(
  respond: Receiver['respond'] = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  },
): Promise<Receiver> {
  const receiver = { received: [] as Received[], connections: 0, respond } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: Received = { headers: req.headers, body: Buffer.concat(chunks), path: req.url ?? '' };
      receiver.received.push(received);
      res.on('finish', () => {
        received.status = res.statusCode;
      });
      receiver.respond(req, res);
    });
  });
  server.on('connection', () => {
    receiver.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.waitFor = async (n, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (receiver.received.length < n) {
      if (Date.now() > deadline) throw new Error(`receiver got ${receiver.received.length} of ${n} requests`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return receiver.received;
  };
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
