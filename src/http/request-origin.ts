import type { FastifyRequest } from 'fastify';

/** Where a request came from, as the audit entry of a change it made records it. */
export interface RequestOrigin {
  requestId: string;
  /** The connection's address, as this server saw it. */
  ip: string | null;
  userAgent: string | null;
}

export function requestOrigin(request: FastifyRequest): RequestOrigin {
  return { requestId: request.id, ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}
