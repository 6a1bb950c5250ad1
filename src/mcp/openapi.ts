/**
 * The part of the service's OpenAPI document the MCP tools are built from: an operation's
 * parameters and JSON body, with the shared schemas (`#/components/schemas/<name>`) put in
 * place, since an MCP client reads a tool's input schema on its own, without the document.
 */

export type JsonSchema = { [key: string]: unknown };

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
}

/** An OpenAPI 3.1 document, as far as the tools read it. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation | undefined> | undefined>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One operation, read for a tool: its words, its parameters by place, and its JSON body's schema. */
export interface Operation {
  summary: string;
  description: string;
  path: OpenApiParameter[];
  query: OpenApiParameter[];
  headers: Set<string>;
  /** The `application/json` body's schema (an object schema), when the operation takes one. */
  body: JsonSchema | null;
}

const LOCAL_REF = '#/components/schemas/';

/** `schema` with every local `$ref` replaced by the schema it names (a copy; the document is not changed). */
export function inlineRefs(schema: unknown, doc: OpenApiDocument, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlineRefs(item, doc, seen));
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as JsonSchema;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    if (!ref.startsWith(LOCAL_REF))
      throw new Error(`the OpenAPI document refers to ${ref}, which is not a shared schema`);
    const name = ref.slice(LOCAL_REF.length);
    // A schema that contains itself cannot be written out; no request schema of the API does.
    if (seen.includes(name)) throw new Error(`the shared schema ${name} refers to itself`);
    const target = doc.components?.schemas?.[name];
    if (!target) throw new Error(`the OpenAPI document has no shared schema ${name}`);
    const { $ref: _ref, ...siblings } = node;
    return {
      ...(inlineRefs(target, doc, [...seen, name]) as JsonSchema),
      ...(inlineRefs(siblings, doc, seen) as JsonSchema),
    };
  }
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    // `$id` names a shared schema inside the document; a tool's schema stands alone.
    if (key === '$id') continue;
    copy[key] = inlineRefs(value, doc, seen);
  }
  return copy;
}

/** The operation at `method path`; throws when the document lacks it (the tool table and the API disagree). */
export function operationOf(doc: OpenApiDocument, method: HttpMethod, path: string): Operation {
  const operation = doc.paths?.[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the OpenAPI document has no operation ${method} ${path}`);
  const parameters = operation.parameters ?? [];
  const body = operation.requestBody?.content?.['application/json']?.schema;
  return {
    summary: operation.summary ?? '',
    description: operation.description ?? '',
    path: parameters.filter((p) => p.in === 'path'),
    query: parameters.filter((p) => p.in === 'query'),
    headers: new Set(parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase())),
    body: body ? (inlineRefs(body, doc) as JsonSchema) : null,
  };
}
