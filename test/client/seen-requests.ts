import type { Server } from 'node:http';

export interface SeenRequest {
  method: string;
  /** Path and query string. */
  url: string;
  status: number;
  idempotencyKey: string | undefined;
  /** When the request arrived (Date.now()). */
  arrivedAt: number;
}

/** Records every request `server` receives, with its answer's status, as the server saw them. */
export function recordRequests(server: Server): SeenRequest[] {
  const seen: SeenRequest[] = [];
  server.on('request', (request, response) => {
    const arrivedAt = Date.now();
    response.on('finish', () => {
      const key = request.headers['idempotency-key'];
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        status: response.statusCode,
        idempotencyKey: Array.isArray(key) ? key[0] : key,
        arrivedAt,
      });
    });
  });
  return seen;
}
