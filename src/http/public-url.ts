import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** Where users reach this service: PUBLIC_URL, else the address this request came to. */
export function publicBaseUrl(config: Pick<Config, 'publicUrl'>, request: FastifyRequest): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}
