import { randomUUID } from 'node:crypto';
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { ApiError, type Dependency, UnavailableError, type ValidationDetail } from './errors.ts';

interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** Turns Ajv's errors into `{field, message}` pairs a user can act on. */
function validationDetails(context: string | undefined, validation: SchemaError[]): ValidationDetail[] {
  const base = CONTEXT_NAMES[context ?? ''] ?? context ?? 'request';
  const details = validation.map((e) => {
    const path = e.instancePath
      .split('/')
      .filter(Boolean)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') {
      path.push(e.params.missingProperty);
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' && typeof e.params.additionalProperty === 'string') {
      path.push(e.params.additionalProperty);
      message = 'is not a known field';
    } else if (e.keyword === 'pattern') {
      message = 'has characters or a form that is not allowed here';
    }
    return { field: [base, ...path].join('.'), message };
  });
  // anyOf/union failures repeat one field per branch; one line per field and message is enough.
  const seen = new Set<string>();
  return details.filter((d) => {
    const key = `${d.field}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Maps Fastify's own errors (parsing, limits) onto the API's codes. */
function fromFastifyError(error: FastifyError): ApiError | undefined {
  if (error.validation) {
    const details = validationDetails(error.validationContext, error.validation as SchemaError[]);
    return new ApiError(400, 'validation_failed', 'The request does not match the schema; see details.', details);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'invalid_json', 'The body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', 'The body is larger than this API accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        415,
        'unsupported_media_type',
        'Send the body as JSON with "Content-Type: application/json".',
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'invalid_request', 'The Content-Length header does not match the body.');
    default:
      break;
  }
  if (error instanceof SyntaxError) return new ApiError(400, 'invalid_json', 'The body is not valid JSON.');
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(error.statusCode, 'invalid_request', error.message);
  }
  return undefined;
}

/** How long a client should wait before retrying a request that met an unavailable dependency. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

const UNAVAILABLE_MESSAGES: Record<Dependency, string> = {
  database: 'The database cannot be reached right now.',
  storage: 'The media store cannot be reached right now.',
};

/** A dependency that did not answer: the client's cue to retry, never a 500. */
function unavailable(error: unknown): ApiError | undefined {
  const dependency =
    error instanceof UnavailableError ? error.dependency : isDatabaseUnavailable(error) ? 'database' : undefined;
  if (!dependency) return undefined;
  return new ApiError(
    503,
    `${dependency}_unavailable`,
    `${UNAVAILABLE_MESSAGES[dependency]} Retry in a few seconds.`,
    undefined,
    { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  );
}

/** A new request id: `req_` and 32 hex digits. */
export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError) {
  // Also set here: errors Fastify raises before the onRequest hooks (a bad URL) skip them.
  if (error.headers) reply.headers(error.headers);
  return reply
    .code(error.status)
    .header('Request-Id', request.id)
    .send({
      error: {
        code: error.code,
        message: error.message,
        request_id: request.id,
        ...(error.details === undefined ? {} : { details: error.details }),
      },
    });
}

/** For Fastify's `frameworkErrors` option: errors raised while routing, before any hook. */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const known =
    error.code === 'FST_ERR_BAD_URL'
      ? new ApiError(400, 'invalid_url', 'The request path is not valid percent-encoding.')
      : (fromFastifyError(error) ?? new ApiError(400, 'invalid_request', 'The request could not be routed.'));
  return sendError(request, reply, known);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const down = unavailable(error);
    if (down) {
      // The operator's cue: the dependency named, and what the driver said.
      request.log.warn({ err: error }, `request failed: ${down.code}`);
      return sendError(request, reply, down);
    }
    const known = error instanceof ApiError ? error : fromFastifyError(error);
    if (known) {
      if (known.status >= 500) request.log.error({ err: error }, 'request failed');
      return sendError(request, reply, known);
    }
    request.log.error({ err: error }, 'unexpected error while handling a request');
    return sendError(
      request,
      reply,
      new ApiError(500, 'internal_error', 'Something went wrong on our side. Quote the request_id when you report it.'),
    );
  });
  app.setNotFoundHandler((request, reply) => {
    const path = (request.url.split('?')[0] ?? '').slice(0, 200);
    return sendError(request, reply, new ApiError(404, 'not_found', `No route ${request.method} ${path}.`));
  });
  // While closing, requests still arriving on kept-alive connections get a clear answer
  // in the API's own shape.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async () => {
    if (closing) throw new ApiError(503, 'shutting_down', 'This server is shutting down; retry the request.');
  });
  // A kept-alive connection would hold the close open until its idle timeout: answers
  // given while closing, including those to requests in flight, end their connection.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('Connection', 'close');
    return payload;
  });
}

/** What Node's HTTP parser (or its timers) refused, as the API's status and code. */
function fromClientError(error: ConnectionError): ApiError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'request_timeout', 'The request (headers and body) did not arrive in time.');
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, 'headers_too_large', 'The request line and headers are larger than 16 KiB.');
    default:
      return new ApiError(400, 'invalid_request', 'The request is not well-formed HTTP/1.1.');
  }
}

/**
 * For Fastify's `clientErrorHandler` option: what Node's HTTP parser refuses (a control
 * character in a header, two Content-Lengths, a bad chunk size, headers over 16 KiB) and
 * the request and header timeouts never reach Fastify's routing, so the answer is written
 * to the socket here, in the API's shape. The connection is closed after it: the parser
 * cannot tell where the next request would start.
 */
export function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  // Nothing to answer on a connection the client has already dropped.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = fromClientError(error);
  const requestId = newRequestId();
  this.log.info({ reqId: requestId, code: error.code, status: known.status }, 'client error');
  // As Node itself does: an answer already begun on this connection must not be corrupted.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ error: { code: known.code, message: known.message, request_id: requestId } });
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
