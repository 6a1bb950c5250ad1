import type { FastifyInstance } from 'fastify';
import type { Store } from './store.ts';

export function threadsHosts(_store: Store): Record<string, (app: FastifyInstance) => void> {
  return {};
}
