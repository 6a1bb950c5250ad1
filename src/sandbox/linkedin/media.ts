/** What LinkedIn's media uploads share: their bodies, their upload URLs, their processing, how a post names them. */
import type { FastifyRequest } from 'fastify';
import { DAY_MS } from '../../days.ts';
import { caller } from '../caller.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxContainer } from '../schema.ts';
import { CONTAINER_PROCESSING_SECONDS, createContainer, findContainer } from '../store/containers.ts';
import { waitMs } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { authoredBy, call, checkVersionHeaders, ownedBy } from './access.ts';
import { linkedin, linkedinAnswer } from './answers.ts';

/** How long an upload URL is valid. */
export const UPLOAD_TTL_MS = DAY_MS;

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

/** What LinkedIn uploads and processes before a post names it. */
export type UploadKind = 'image' | 'video' | 'document';

const urnOf = (kind: UploadKind) => new RegExp(`^urn:li:${kind}:(\\d+)$`);
const aOrAn = (kind: UploadKind) => (kind === 'image' ? 'an image' : `a ${kind}`);

/** An upload of `kind` of the caller's member or an organization they administer, by its id or URN (else 404, or 403). */
export async function uploadOf(
  store: Store,
  request: FastifyRequest,
  kind: UploadKind,
  idOrUrn: string,
): Promise<SandboxContainer> {
  const who = await caller(store, request, call);
  const id = urnOf(kind).exec(idOrUrn)?.[1] ?? idOrUrn;
  const upload = /^\d+$/.test(id) ? await findContainer(store, id) : undefined;
  if (upload?.request.kind !== kind) throw linkedin.notFound(idOrUrn);
  await ownedBy(store, who, String(upload.request.owner));
  return upload;
}

/** An upload of `kind` the post's organization made and LinkedIn has processed: its URL (else 400, why). */
export async function availableUpload(store: Store, kind: UploadKind, owner: string, urn: unknown): Promise<string> {
  const id = typeof urn === 'string' ? urnOf(kind).exec(urn)?.[1] : undefined;
  const upload = id === undefined ? undefined : await findContainer(store, id);
  if (upload?.request.kind !== kind || upload.request.owner !== owner) {
    throw linkedinAnswer(400, 'ILLEGAL_ARGUMENT', `${String(urn)} is not ${aOrAn(kind)} of ${owner}`);
  }
  const status = await processedStatus(store, upload.request);
  if (status !== 'AVAILABLE') {
    throw linkedinAnswer(400, 'ILLEGAL_ARGUMENT', `${String(urn)} cannot be posted: its status is ${status}`);
  }
  return String(upload.request.mediaUrl);
}

/**
 * `initializeUpload` of an upload made in one PUT (Images API, Documents API): the upload, named
 * `urn:li:<kind>:<id>`, and the URL under `uploadPath` to PUT its bytes to.
 */
export async function initializeSingleUpload(
  store: Store,
  request: FastifyRequest,
  kind: 'image' | 'document',
  uploadPath: string,
) {
  checkVersionHeaders(request, store.now());
  const who = await caller(store, request, call);
  if (param(request, 'action') !== 'initializeUpload') throw linkedin.badParameter('action must be initializeUpload');
  const body = jsonObject(
    jsonObject(request.body ?? null, 'The body').initializeUploadRequest,
    'initializeUploadRequest',
  );
  // "owner": the member (w_member_social) or an organization (w_organization_social) the post will be by.
  const owner = await authoredBy(store, who, String(body.owner ?? ''));
  const upload = await createContainer(store, owner.account.id, { kind, owner: owner.urn });
  return {
    value: {
      uploadUrlExpiresAt: store.now().getTime() + UPLOAD_TTL_MS,
      uploadUrl: `${hostBase(request, 'www.linkedin.com')}${uploadPath}${upload.id}`,
      [kind]: `urn:li:${kind}:${upload.id}`,
    },
  };
}

/** "Get a Single Image", "Get a Video", "Get a Document": the upload's status, its URL once AVAILABLE. */
export async function uploadAnswer(store: Store, request: FastifyRequest, kind: UploadKind) {
  checkVersionHeaders(request, store.now());
  const urn = (request.params as { urn: string }).urn;
  const upload = await uploadOf(store, request, kind, urn);
  const status = await processedStatus(store, upload.request);
  return {
    id: urn,
    owner: upload.request.owner,
    status,
    ...(status === 'AVAILABLE' ? { downloadUrl: upload.request.mediaUrl } : {}),
  };
}
