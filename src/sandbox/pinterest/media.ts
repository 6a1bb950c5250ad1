/**
 * The media upload of a video pin: `POST /v5/media` registers it (`media_id`, `upload_url`,
 * `upload_parameters`); the file is sent to the upload host as a multipart form, each of the
 * parameters and then `file`; `GET /v5/media/{media_id}` answers `registered` until the file came,
 * `processing` for `container_processing_seconds`, then `succeeded`.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { sniffFormat } from '../media-fetch.ts';
import type { Store } from '../platform.ts';
import {
  CONTAINER_PROCESSING_SECONDS,
  createContainer,
  findContainer,
  setContainerRequest,
} from '../store/containers.ts';
import { waitMs } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { callOptions, SCOPE } from './access.ts';
import { pinterest, pinterestAnswer } from './answers.ts';

export const UPLOAD_HOST = 'pinterest-media-upload.s3-accelerate.amazonaws.com';
/** "Pinterest product specs": a video of at most 2 GB; the sandbox takes far less in one request. */
const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;

/** The sandbox's own address of a host, as this request reached it (`.../api.pinterest.com` → `.../<host>`). */
function hostBase(request: FastifyRequest, host: string): string {
  const prefix = request.url.split('/api.pinterest.com/')[0] ?? '';
  return `${request.protocol}://${request.host}${prefix}/${host}`;
}

async function statusOf(store: Store, upload: Record<string, unknown>): Promise<string> {
  const { uploadedAt } = upload;
  if (typeof uploadedAt !== 'number') return 'registered';
  const processing = waitMs(await getSetting(store, CONTAINER_PROCESSING_SECONDS));
  return store.now().getTime() - uploadedAt < processing ? 'processing' : 'succeeded';
}

/** The upload `mediaId` of the user, processed: its file's address (else Pinterest's refusal). */
export async function readyUpload(store: Store, accountId: string, mediaId: string): Promise<string> {
  const upload = /^\d+$/.test(mediaId) ? await findContainer(store, mediaId) : undefined;
  if (upload === undefined || upload.accountId !== accountId || upload.request.kind !== 'media') {
    throw pinterest.notFound(`media ${mediaId}`);
  }
  if ((await statusOf(store, upload.request)) !== 'succeeded') {
    throw pinterestAnswer(400, `The media upload ${mediaId} is not ready: its status is not succeeded.`);
  }
  return `https://v1.pinimg.com/videos/${mediaId}.mp4`;
}

/** A multipart form's parts, by name: each field's text, or the file's bytes. */
function formParts(body: Buffer, contentType: string): Map<string, Buffer> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const parts = new Map<string, Buffer>();
  const mark = boundary?.[1] ?? boundary?.[2];
  if (mark === undefined) return parts;
  const delimiter = Buffer.from(`--${mark}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(at + delimiter.length + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const name = /name="([^"]+)"/.exec(part.subarray(0, Math.max(split, 0)).toString('latin1'))?.[1];
    if (split !== -1 && name !== undefined) parts.set(name, part.subarray(split + 4));
    at = next;
  }
  return parts;
}

export function mediaRoutes(app: FastifyInstance, store: Store): void {
  app.post('/v5/media', async (request, reply) => {
    const options = callOptions();
    const who = await caller(store, request, options);
    // Register media upload: pins:read and pins:write.
    requireScope(who, options, SCOPE.pinsRead);
    requireScope(who, options, SCOPE.pinsWrite);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.media_type !== 'video') throw pinterestAnswer(400, 'media_type must be video');
    const upload = await createContainer(store, who.account.id, { kind: 'media' });
    // The key names the upload, with a part only this registration knows.
    const key = `uploads/${upload.id}:video:${randomBytes(8).toString('hex')}`;
    await setContainerRequest(store, upload.id, { kind: 'media', key });
    return reply.code(201).send({
      media_id: upload.id,
      media_type: 'video',
      upload_url: `${hostBase(request, UPLOAD_HOST)}/`,
      upload_parameters: { key, 'Content-Type': 'multipart/form-data', policy: randomBytes(16).toString('base64') },
    });
  });

  app.get('/v5/media/:media_id', async (request) => {
    const options = callOptions();
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.pinsRead);
    const id = (request.params as { media_id: string }).media_id;
    const upload = /^\d+$/.test(id) ? await findContainer(store, id) : undefined;
    if (upload === undefined || upload.accountId !== who.account.id || upload.request.kind !== 'media') {
      throw pinterest.notFound(`media ${id}`);
    }
    return { media_id: upload.id, media_type: 'video', status: await statusOf(store, upload.request) };
  });
}

/** The upload host: the form's `key` names the registered upload, its `file` the video's bytes. */
export function uploadRoutes(app: FastifyInstance, store: Store): void {
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
    (_r, body, done) => done(null, body),
  );
  app.post('/', { bodyLimit: MAX_UPLOAD_BYTES }, async (request, reply) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const parts = formParts(body, request.headers['content-type'] ?? '');
    const key = parts.get('key')?.toString('utf8');
    const file = parts.get('file');
    const id = /^uploads\/(\d+):video:/.exec(key ?? '')?.[1];
    const upload = id === undefined ? undefined : await findContainer(store, id);
    if (upload === undefined || upload.request.key !== key || file === undefined) return reply.code(400).send('');
    const format = sniffFormat(file.subarray(0, 32));
    if (format !== 'mp4' && format !== 'mov') return reply.code(400).send('');
    await setContainerRequest(store, upload.id, {
      ...upload.request,
      uploadedAt: store.now().getTime(),
      bytes: file.length,
    });
    return reply.code(204).send();
  });
}
