/**
 * The Documents API, imitated: `initializeUpload` names the document and a URL to PUT its bytes
 * to; the document is then PROCESSING for `container_processing_seconds`, then AVAILABLE, or
 * PROCESSING_FAILED when its bytes are not a PDF; "Get a Document" reads its status. A post
 * names it in `content.media` with a `title`.
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../platform.ts';
import { setContainerRequest } from '../store/containers.ts';
import { initializeSingleUpload, uploadAnswer, uploadOf } from './media.ts';

const UPLOAD_PATH = '/dms-uploads/sp/document/';
/** The largest document taken: 100 MB (as comparable services quote the Documents API; docs/platforms.md, Open questions). */
const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;

export function documentRoutes(app: FastifyInstance, store: Store): void {
  app.post('/rest/documents', (request) => initializeSingleUpload(store, request, 'document', UPLOAD_PATH));
  app.get('/rest/documents/:urn', (request) => uploadAnswer(store, request, 'document'));
}

/** www.linkedin.com: the upload URL takes the document's bytes, with the member's token. */
export function documentUploadRoutes(app: FastifyInstance, store: Store): void {
  app.put(`${UPLOAD_PATH}:id`, { bodyLimit: MAX_DOCUMENT_BYTES }, async (request, reply) => {
    const document = await uploadOf(store, request, 'document', (request.params as { id: string }).id);
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
