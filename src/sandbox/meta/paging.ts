/** Graph's cursor paging of lists. */
import type { FastifyRequest } from 'fastify';
import { param } from '../kit.ts';

/** A Graph list answer with cursor paging; `next` repeats the request with `after` set. */
export function graphList(
  request: FastifyRequest,
  data: Record<string, unknown>[],
  more: boolean,
  nextCursor: string | null,
): Record<string, unknown> {
  const cursors = {
    before: Buffer.from(String(data[0]?.id ?? '')).toString('base64url'),
    after: nextCursor === null ? '' : Buffer.from(nextCursor).toString('base64url'),
  };
  const paging: Record<string, unknown> = { cursors };
  if (more && nextCursor !== null) {
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    url.searchParams.set('after', cursors.after);
    paging.next = url.toString();
  }
  return { data, paging };
}

/** The `after` cursor of a Graph list request, decoded. */
export function afterCursor(request: FastifyRequest): string | undefined {
  const raw = param(request, 'after');
  if (raw === undefined || raw === '') return undefined;
  return Buffer.from(raw, 'base64url').toString('utf8');
}
