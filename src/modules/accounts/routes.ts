import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db/connection.ts';

export function accountRoutes(_deps: { db: Db }): FastifyPluginAsyncTypebox {
  return async () => {};
}
