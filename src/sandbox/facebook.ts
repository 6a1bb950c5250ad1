import type { FastifyInstance } from 'fastify';
import type { Store } from './store.ts';

export function facebookHosts(_store: Store): Record<string, (app: FastifyInstance) => void> {
  return {};
}
