/**
 * The Documents API, imitated: `initializeUpload` names the document and a URL to PUT its bytes
 * to; the document is then PROCESSING for `container_processing_seconds`, then AVAILABLE, or
 * PROCESSING_FAILED when its bytes are not a PDF; "Get a Document" reads its status. A post
 * names it in `content.media` with a `title`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxContainer } from '../schema.ts';
import { createContainer, findContainer, setContainerRequest } from '../store/containers.ts';
import { administered, call, checkVersionHeaders, organizationUrn, SCOPE } from './access.ts';
import { linkedin, linkedinAnswer } from './answers.ts';
import { hostBase, jsonObject, processedStatus, UPLOAD_TTL_MS } from './media.ts';

const DOCUMENT_URN = /^urn:li:document:(\d+)$/;
const UPLOAD_PATH = '/dms-uploads/sp/document/';
/** The largest document taken: 100 MB (as comparable services quote the Documents API; docs/platforms.md, Open questions). */
const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;

/** A document of an organization the caller administers, by its id or URN. */
async function documentOf(store: Store, request: FastifyRequest, idOrUrn: string): Promise<SandboxContainer> {
  const who = await caller(store, request, call);
  const id = DOCUMENT_URN.exec(idOrUrn)?.[1] ?? idOrUrn;
  const document = /^\d+$/.test(id) ? await findContainer(store, id) : undefined;
  if (document?.request.kind !== 'document') throw linkedin.notFound(idOrUrn);
  await administered(store, who, String(document.request.owner));
  return document;
}

/** Whether `urn` names a document. */
export const isDocumentUrn = (urn: unknown): boolean => typeof urn === 'string' && DOCUMENT_URN.test(urn);

/** A document the caller's organization uploaded and LinkedIn has processed: its URL. */
export async function availableDocument(store: Store, owner: string, urn: string): Promise<string> {
  const id = DOCUMENT_URN.exec(urn)?.[1];
  const document = id === undefined ? undefined : await findContainer(store, id);
  if (document?.request.kind !== 'document' || document.request.owner !== owner) {
    throw linkedinAnswer(400, 'ILLEGAL_ARGUMENT', `${urn} is not a document of ${owner}`);
  }
  const status = await processedStatus(store, document.request);
  if (status !== 'AVAILABLE') {
    throw linkedinAnswer(400, 'ILLEGAL_ARGUMENT', `${urn} cannot be posted: its status is ${status}`);
  }
  return String(document.request.mediaUrl);
}

export function documentRoutes(app: FastifyInstance, store: Store): void {
  app.post('/rest/documents', async (request) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    if (param(request, 'action') !== 'initializeUpload') throw linkedin.badParameter('action must be initializeUpload');
    requireScope(who, call, SCOPE.organizationWrite);
    const body = jsonObject(
      jsonObject(request.body ?? null, 'The body').initializeUploadRequest,
      'initializeUploadRequest',
    );
    const org = await administered(store, who, String(body.owner ?? ''));
    const document = await createContainer(store, org.id, { kind: 'document', owner: organizationUrn(org.id) });
    return {
      value: {
        uploadUrlExpiresAt: store.now().getTime() + UPLOAD_TTL_MS,
        uploadUrl: `${hostBase(request, 'www.linkedin.com')}${UPLOAD_PATH}${document.id}`,
        document: `urn:li:document:${document.id}`,
      },
    };
  });

  app.get('/rest/documents/:urn', async (request) => {
    checkVersionHeaders(request, store.now());
    const urn = (request.params as { urn: string }).urn;
    const document = await documentOf(store, request, urn);
    const status = await processedStatus(store, document.request);
    return {
      id: urn,
      owner: document.request.owner,
      status,
      ...(status === 'AVAILABLE' ? { downloadUrl: document.request.mediaUrl } : {}),
    };
  });
}

/** www.linkedin.com: the upload URL takes the document's bytes, with the member's token. */
export function documentUploadRoutes(app: FastifyInstance, store: Store): void {
  app.put(`${UPLOAD_PATH}:id`, { bodyLimit: MAX_DOCUMENT_BYTES }, async (request, reply) => {
    const document = await documentOf(store, request, (request.params as { id: string }).id);
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    // Processed from now on: AVAILABLE once container_processing_seconds have passed.
    await setContainerRequest(store, document.id, {
      ...document.request,
      uploadedAt: store.now().getTime(),
      failed: bytes.subarray(0, 5).toString('latin1') !== '%PDF-',
      mediaUrl: `https://media.licdn.com/dms/document/${document.id}.pdf`,
    });
    return reply.code(201).send();
  });
}
