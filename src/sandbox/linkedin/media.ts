/** What LinkedIn's media uploads share: their bodies, their upload URLs, their processing. */
import type { FastifyRequest } from 'fastify';
import type { Store } from '../platform.ts';
import { CONTAINER_PROCESSING_SECONDS } from '../store/containers.ts';
import { waitMs } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { linkedin } from './answers.ts';

/** How long an upload URL is valid. */
export const UPLOAD_TTL_MS = 24 * 3_600_000;

export function jsonObject(value: unknown, name: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw linkedin.badParameter(`${name} must be an object`);
  }
  return value as Record<string, unknown>;
}

/** The sandbox's own address of a host, as this request reached it (`.../www.linkedin.com`). */
export function hostBase(request: FastifyRequest, host: string): string {
  const prefix = request.url.split('/api.linkedin.com/')[0] ?? '';
  return `${request.protocol}://${request.host}${prefix}/${host}`;
}

/**
 * An upload's status now: its bytes awaited (WAITING_UPLOAD), PROCESSING for
 * `container_processing_seconds` after they came, then AVAILABLE or PROCESSING_FAILED.
 */
export async function processedStatus(store: Store, upload: Record<string, unknown>): Promise<string> {
  const { uploadedAt, failed } = upload;
  if (typeof uploadedAt !== 'number') return 'WAITING_UPLOAD';
  const processing = waitMs(await getSetting(store, CONTAINER_PROCESSING_SECONDS));
  if (store.now().getTime() - uploadedAt < processing) return 'PROCESSING';
  return failed === true ? 'PROCESSING_FAILED' : 'AVAILABLE';
}
