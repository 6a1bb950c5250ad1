import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import type { PlatformSet } from '../../platforms/index.ts';

export function connectRoutes(_deps: { db: Db; config: Config; platforms: () => PlatformSet }): FastifyPluginAsyncTypebox {
  return async () => {};
}
