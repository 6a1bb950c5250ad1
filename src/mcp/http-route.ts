/**
 * MCP over Streamable HTTP at `/mcp`, authenticated as any API request: the route sits among
 * the `/v1` routes, behind their rate limit and authentication, and its tools call the API
 * with the request's own Authorization (and Service-Profile) headers.
 *
 * Stateless: each POST gets a server of its own and a JSON answer (no session, no stream), so
 * any API process answers any request and nothing is held between them.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyRequest, InjectOptions, LightMyRequestResponse } from 'fastify';
import { ApiError } from '../http/errors.ts';
import type { OpenApiDocument } from './openapi.ts';
import { type ApiAnswer, answerBody, type CallApi, createMcpServer, instructionsFor, wireRequest } from './server.ts';
import { buildTools, type McpTool } from './tools.ts';

export interface McpRouteOptions {
  name: string;
  version: string;
  /** The API's OpenAPI document, the tools' source. */
  document: () => OpenApiDocument;
  /** Runs an API request inside this process (Fastify's inject). */
  inject: (options: InjectOptions) => Promise<LightMyRequestResponse>;
  /** PUBLIC_URL's origin: the one browser origin allowed to call. */
  publicOrigin: string | undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A web Request standing for the Fastify request, for the SDK's transport, which reads its
 * method and headers (the body is handed over parsed). Its URL's host is a placeholder: the
 * Host header a client sent need not make a valid URL, and the transport does not read it.
 */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(`http://localhost${request.url}`, { method: request.method, headers });
}

const methodNotAllowed = () =>
  new ApiError(
    405,
    'method_not_allowed',
    'The MCP endpoint is stateless: it takes POST requests only (no session, no event stream).',
    undefined,
    { allow: 'POST' },
  );

export function mcpRoutes(options: McpRouteOptions) {
  const tools = new Map<boolean, McpTool[]>();
  const toolsFor = (profileArgument: boolean) => {
    let built = tools.get(profileArgument);
    if (!built) {
      built = buildTools(options.document(), { profileArgument });
      tools.set(profileArgument, built);
    }
    return built;
  };

  return async (app: FastifyInstance) => {
    // Each tool call is an API request of its own, audited as such: the transport records nothing.
    const config = { keyOnly: true, idempotencyKey: false as const, audit: false as const };
    const schema = { hide: true };
    app.post('/mcp', { config, schema }, async (request, reply) => {
      // Browsers send Origin; MCP clients do not. A page of another site must never reach the
      // tools, even where a browser would carry a key to them (the MCP transport's rule).
      const origin = single(request.headers.origin);
      if (origin !== undefined && origin !== options.publicOrigin) {
        throw new ApiError(
          403,
          'origin_not_allowed',
          `Requests from the browser origin ${origin} are not accepted here.`,
        );
      }
      const authorization = single(request.headers.authorization) ?? '';
      const profileHeader = single(request.headers['service-profile']);
      const bound = request.scope.profileId !== null || profileHeader !== undefined;
      const call: CallApi = async (api): Promise<ApiAnswer> => {
        const { headers, body } = wireRequest(api, {
          authorization,
          userAgent: 'switchboard-mcp',
          profile: profileHeader,
        });
        const response = await options.inject({
          method: api.method,
          url: api.url,
          headers,
          remoteAddress: request.ip,
          ...(body !== undefined ? { payload: body } : {}),
        });
        request.log.info(
          { mcp: { method: api.method, url: api.url, status: response.statusCode } },
          'MCP tool called the API',
        );
        return { status: response.statusCode, body: answerBody(response.body) };
      };
      const server = createMcpServer({
        name: options.name,
        version: options.version,
        tools: toolsFor(!bound),
        call,
        instructions: instructionsFor(
          request.scope.caller.type === 'api_key' && request.scope.caller.kind === 'profile'
            ? 'profile key'
            : profileHeader,
        ),
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
        reply.code(response.status);
        response.headers.forEach((value, name) => {
          reply.header(name, value);
        });
        const text = await response.text();
        return reply.send(text === '' ? undefined : text);
      } finally {
        await transport.close();
        await server.close();
      }
    });
    app.get('/mcp', { config, schema }, async () => {
      throw methodNotAllowed();
    });
    app.delete('/mcp', { config, schema }, async () => {
      throw methodNotAllowed();
    });
  };
}
