/**
 * A TCP proxy in front of a real server, which a test can take down: at once, once a given
 * number of bytes have gone through towards the server (a store failing mid-upload), or as a
 * given statement is on its way (a database lost under it). While down it listens no more, so
 * new connections are refused, as they are by a stopped server.
 */
import { once } from 'node:events';
import net from 'node:net';

export interface TcpProxy {
  /** `127.0.0.1:N`, the same across downs and ups. */
  address: string;
  /** Goes down once `bytes` more have been sent towards the server; resolves when it has. */
  downAfter(bytes: number): Promise<void>;
  /**
   * Goes down, without passing it on, at the first chunk towards the server that contains every
   * one of `parts` (a statement's text or the name of its prepared statement, and a parameter as
   * the wire carries it); resolves when it has.
   */
  downAt(...parts: (string | Buffer)[]): Promise<void>;
  /** Closes every connection and stops listening. */
  down(): Promise<void>;
  /** Listens again, on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let budget = Number.POSITIVE_INFINITY;
  let tripwire: (string | Buffer)[] | undefined;
  let onDown: (() => void) | undefined;
  let server: net.Server;
  let port = 0;

  const listen = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(target);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.on('data', (chunk: Buffer) => {
        if (tripwire?.every((part) => chunk.includes(part))) {
          void proxy.down();
          return;
        }
        budget -= chunk.length;
        if (budget > 0) {
          upstream.write(chunk);
          return;
        }
        upstream.write(chunk.subarray(0, chunk.length + budget));
        void proxy.down();
      });
      client.on('end', () => upstream.end());
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as net.AddressInfo).port;
  };

  const proxy: TcpProxy = {
    get address() {
      return `127.0.0.1:${port}`;
    },
    downAfter(bytes) {
      budget = bytes;
      return new Promise((resolve) => {
        onDown = resolve;
      });
    },
    downAt(...parts) {
      tripwire = parts;
      return new Promise((resolve) => {
        onDown = resolve;
      });
    },
    async down() {
      budget = Number.POSITIVE_INFINITY;
      tripwire = undefined;
      const closed = server.listening ? once(server, 'close') : Promise.resolve();
      server.close();
      for (const socket of sockets) socket.destroy();
      await closed;
      onDown?.();
      onDown = undefined;
    },
    async up() {
      await listen();
    },
    async close() {
      if (server.listening) await proxy.down();
    },
  };
  await listen();
  return proxy;
}
