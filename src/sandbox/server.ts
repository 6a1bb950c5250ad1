import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from '../db/connection.ts';
import { sandboxRoutes } from './index.ts';

/** The sandbox platforms alone (`switchboard sandbox --port N`), at `/sandbox` as under `npm start`. */
export async function buildSandboxApp(options: { db: Db; log?: Logger; now?: () => Date }): Promise<FastifyInstance> {
  const app = Fastify(options.log ? { loggerInstance: options.log as FastifyBaseLogger } : { logger: false });
  await app.register(sandboxRoutes({ db: options.db, ...(options.now ? { now: options.now } : {}) }), {
    prefix: '/sandbox',
  });
  return app;
}
