import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.ts';

describe('graceful shutdown of the API', () => {
  it('finishes a request in flight before closing, and takes no new connections', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => {};
    const inHandler = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const t = await startTestApp({}, (app) =>
      app.get('/slow', async () => {
        entered();
        await held;
        return { finished: true };
      }),
    );
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const inFlight = fetch(`http://127.0.0.1:${port}/slow`);
      await inHandler;

      // The close has reached the point of refusing new connections once the listener is closed.
      const server = t.app.server;
      const listenerClosed = new Promise<void>((resolve) => {
        const close = server.close.bind(server);
        server.close = ((callback?: (err?: Error) => void) => {
          const result = close(callback);
          resolve();
          return result;
        }) as typeof server.close;
      });
      let closed = false;
      const closing = t.app.close().then(() => {
        closed = true;
      });
      await listenerClosed;
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
      // Held open by the request in flight, however long that takes.
      expect(closed).toBe(false);

      release();
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(res.headers.get('connection')).toBe('close');
      expect(await res.json()).toEqual({ finished: true });
      await closing;
      expect(closed).toBe(true);
    } finally {
      release();
      await t.close();
    }
  });
});
