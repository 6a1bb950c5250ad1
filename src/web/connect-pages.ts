import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/connection.ts';
import type { PlatformSet } from '../platforms/index.ts';

export function connectPages(_deps: { db: Db; secretKey: Buffer; config: Config; platforms: () => PlatformSet }): FastifyPluginAsync {
  return async () => {};
}
