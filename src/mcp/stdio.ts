/**
 * `switchboard mcp`: the MCP server over stdio, for MCP clients that start a command
 * (Claude Desktop, Claude Code, Cursor...). It speaks to a running service over HTTP as any API
 * client does, with the key it is given; its tools come from that service's own OpenAPI
 * document, so they match the version it talks to.
 *
 * stdout carries the protocol alone: every word for a person goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { OpenApiDocument } from './openapi.ts';
import {
  type ApiAnswer,
  type ApiRequest,
  answerBody,
  createMcpServer,
  instructionsFor,
  wireRequest,
} from './server.ts';
import { buildTools, type McpTool, type ToolOptions } from './tools.ts';

export interface StdioOptions {
  name: string;
  version: string;
  /** The service's base URL (`https://switchboard.example.com`). */
  url: string;
  apiKey: string;
  /** Service-Profile on every request: the agent stays inside this profile. */
  profile?: string;
}

const CALL_TIMEOUT_MS = 120_000;

/** A request to the service, answered as status and JSON; a service that cannot be reached is a thrown error. */
async function send(options: StdioOptions, api: ApiRequest): Promise<ApiAnswer> {
  const { headers, body } = wireRequest(api, {
    authorization: `Bearer ${options.apiKey}`,
    userAgent: `switchboard-mcp/${options.version}`,
    profile: options.profile,
  });
  const response = await fetch(new URL(api.url, options.url), {
    method: api.method,
    headers,
    redirect: 'manual',
    // Longer than the service's own request timeout (REQUEST_TIMEOUT_MS, 60 s by default): a
    // service that stopped answering ends the call instead of hanging the agent.
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    ...(body !== undefined ? { body } : {}),
  });
  return { status: response.status, body: answerBody(await response.text()) };
}

/** The service's OpenAPI document could not be had: the message says where it looked and why. */
export class DocumentUnavailableError extends Error {}

/** The service's OpenAPI document; a DocumentUnavailableError when it cannot be had. */
export async function fetchDocument(url: string): Promise<OpenApiDocument> {
  const where = new URL('/openapi.json', url);
  let response: Response;
  try {
    response = await fetch(where, { redirect: 'manual', signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  } catch (error) {
    throw new DocumentUnavailableError(
      `could not reach the service at ${where.origin} (${(error as Error).message}); is SWITCHBOARD_URL right, and is the service running?`,
    );
  }
  if (!response.ok)
    throw new DocumentUnavailableError(
      `${where.href} answered ${response.status}; is SWITCHBOARD_URL the service's base URL?`,
    );
  try {
    return (await response.json()) as OpenApiDocument;
  } catch {
    throw new DocumentUnavailableError(`${where.href} did not answer JSON; is SWITCHBOARD_URL the service's base URL?`);
  }
}

/** The tools of the service's document; a DocumentUnavailableError when it lacks an operation they need. */
function toolsOf(document: OpenApiDocument, url: string, options: ToolOptions): McpTool[] {
  try {
    return buildTools(document, options);
  } catch (error) {
    throw new DocumentUnavailableError(
      `the service at ${new URL(url).origin} lacks what the tools need (${(error as Error).message}); is it an older version of Switchboard?`,
    );
  }
}

/** Runs the server on stdin and stdout until the client closes them. */
export async function runStdioServer(options: StdioOptions): Promise<void> {
  const document = await fetchDocument(options.url);
  // A profile key (`sb_profile_...`) or a bound profile keeps every call in one profile, so
  // its tools offer no profile to choose.
  const profileKey = options.apiKey.startsWith('sb_profile_');
  const server = createMcpServer({
    name: options.name,
    version: options.version,
    tools: toolsOf(document, options.url, { profileArgument: !profileKey && options.profile === undefined }),
    call: async (api) => {
      try {
        return await send(options, api);
      } catch (error) {
        return {
          status: 503,
          body: {
            error: {
              code: 'service_unreachable',
              message: `Could not reach the service at ${new URL(options.url).origin}: ${(error as Error).message}`,
            },
          },
        };
      }
    },
    instructions: instructionsFor(profileKey ? 'profile key' : options.profile),
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  process.stdin.on('end', () => void server.close());
  await closed;
}
