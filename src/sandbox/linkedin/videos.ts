/**
 * The Videos API, imitated: `initializeUpload` with the file's size answers the parts to PUT
 * (4 MiB each, the last one shorter) and their URLs; each part's PUT answers an ETag;
 * `finalizeUpload` with the parts' ETags, in order, ends the upload. The video is then
 * PROCESSING for `container_processing_seconds`, then AVAILABLE (or PROCESSING_FAILED when its
 * bytes are not an MP4), read with "Get a Video".
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { caller } from '../caller.ts';
import { param } from '../kit.ts';
import { sniffFormat } from '../media-fetch.ts';
import type { Store } from '../platform.ts';
import type { SandboxContainer } from '../schema.ts';
import { createContainer, setContainerRequest } from '../store/containers.ts';
import { authoredBy, call, checkVersionHeaders } from './access.ts';
import { linkedin, linkedinAnswer } from './answers.ts';
import { hostBase, jsonObject, UPLOAD_TTL_MS, uploadAnswer, uploadOf } from './media.ts';

/** The size of each part LinkedIn asks for, but the last. */
const PART_BYTES = 4 * 1024 * 1024;
/** The largest video taken: 500 MB (as the service reads LinkedIn's specifications). */
const MAX_VIDEO_BYTES = 500 * 1024 * 1024;
const UPLOAD_PATH = '/dms-uploads/sp/video/';

interface Part {
  firstByte: number;
  lastByte: number;
  etag?: string;
}

function partsOf(video: SandboxContainer): Part[] {
  return Array.isArray(video.request.parts) ? (video.request.parts as Part[]) : [];
}

async function initializeUpload(store: Store, request: FastifyRequest) {
  const who = await caller(store, request, call);
  const body = jsonObject(
    jsonObject(request.body ?? null, 'The body').initializeUploadRequest,
    'initializeUploadRequest',
  );
  const owner = await authoredBy(store, who, String(body.owner ?? ''));
  const size = body.fileSizeBytes;
  if (!Number.isSafeInteger(size) || (size as number) <= 0) {
    throw linkedin.badParameter('initializeUploadRequest.fileSizeBytes must be a positive whole number');
  }
  if ((size as number) > MAX_VIDEO_BYTES) {
    throw linkedinAnswer(400, 'ILLEGAL_ARGUMENT', `The video has more than ${MAX_VIDEO_BYTES} bytes`);
  }
  const parts: Part[] = [];
  for (let first = 0; first < (size as number); first += PART_BYTES) {
    parts.push({ firstByte: first, lastByte: Math.min(first + PART_BYTES, size as number) - 1 });
  }
  const video = await createContainer(store, owner.account.id, {
    kind: 'video',
    owner: owner.urn,
    size,
    parts,
  });
  const base = `${hostBase(request, 'www.linkedin.com')}${UPLOAD_PATH}${video.id}/part/`;
  return {
    value: {
      uploadUrlsExpireAt: store.now().getTime() + UPLOAD_TTL_MS,
      video: `urn:li:video:${video.id}`,
      uploadInstructions: parts.map((part, index) => ({ ...part, uploadUrl: `${base}${index}` })),
      uploadToken: '',
    },
  };
}

async function finalizeUpload(store: Store, request: FastifyRequest) {
  const body = jsonObject(jsonObject(request.body ?? null, 'The body').finalizeUploadRequest, 'finalizeUploadRequest');
  const video = await uploadOf(store, request, 'video', String(body.video ?? ''));
  const parts = partsOf(video);
  const ids = body.uploadedPartIds;
  if (
    !Array.isArray(ids) ||
    ids.length !== parts.length ||
    parts.some((part, index) => part.etag === undefined || part.etag !== ids[index])
  ) {
    throw linkedin.badParameter('uploadedPartIds must list the ETag of every part, in order');
  }
  const format = typeof video.request.format === 'string' ? video.request.format : null;
  // Processed from now on: AVAILABLE once container_processing_seconds have passed.
  await setContainerRequest(store, video.id, {
    ...video.request,
    uploadedAt: store.now().getTime(),
    failed: format !== 'mp4',
    mediaUrl: `https://media.licdn.com/dms/video/${video.id}.mp4`,
  });
  return {};
}

export function videoRoutes(app: FastifyInstance, store: Store): void {
  app.post('/rest/videos', async (request) => {
    checkVersionHeaders(request, store.now());
    switch (param(request, 'action')) {
      case 'initializeUpload':
        return await initializeUpload(store, request);
      case 'finalizeUpload':
        return await finalizeUpload(store, request);
      default:
        throw linkedin.badParameter('action must be initializeUpload or finalizeUpload');
    }
  });

  app.get('/rest/videos/:urn', (request) => uploadAnswer(store, request, 'video'));
}

/** www.linkedin.com: a video's part, its bytes exactly its range's, answered with an ETag. */
export function videoUploadRoutes(app: FastifyInstance, store: Store, bodyLimit: number): void {
  app.put(`${UPLOAD_PATH}:id/part/:index`, { bodyLimit }, async (request, reply) => {
    const { id, index } = request.params as { id: string; index: string };
    const video = await uploadOf(store, request, 'video', id);
    const parts = partsOf(video);
    const part = parts[Number(index)];
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (part === undefined || typeof video.request.uploadedAt === 'number') throw linkedin.notFound(request.url);
    if (bytes.length !== part.lastByte - part.firstByte + 1) {
      throw linkedin.badParameter(
        `The part has ${bytes.length} bytes; its range has ${part.lastByte - part.firstByte + 1}`,
      );
    }
    const etag = `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;
    const updated = parts.map((p, i) => (i === Number(index) ? { ...p, etag } : p));
    await setContainerRequest(store, video.id, {
      ...video.request,
      parts: updated,
      ...(part.firstByte === 0 ? { format: sniffFormat(bytes.subarray(0, 32)) } : {}),
    });
    return reply.code(200).header('etag', etag).send();
  });
}
