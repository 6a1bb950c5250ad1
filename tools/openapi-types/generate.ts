/**
 * The typed client's types (src/client/openapi-types.ts) from the service's OpenAPI document,
 * through openapi-typescript's Node API. It lives in this workspace because openapi-typescript
 * prints through TypeScript 5's compiler API, which the project's TypeScript 7 does not have:
 * the `typescript` it imports resolves to this workspace's 5.9.
 *
 * `npm run build:client` (scripts/build-client.ts) writes the file; test/client/drift.test.ts
 * generates it again from the running app's document and fails when the two differ.
 */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

const HEADER = `/**
 * Generated from the service's OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with \`npm run build:client\` (scripts/build-client.ts, tools/openapi-types/generate.ts).
 */

`;

/** The text of src/client/openapi-types.ts for `document`, an OpenAPI 3.1 document as JSON. */
export async function clientTypes(document: Record<string, unknown>): Promise<string> {
  // openapi-typescript may annotate what it is given; the caller's document stays as it was.
  const copy = structuredClone(document);
  if (!isOpenApi3(copy)) throw new Error(`not an OpenAPI 3 document: ${JSON.stringify(copy).slice(0, 200)}`);
  return HEADER + astToString(await openapiTS(copy, { silent: true }));
}

function isOpenApi3(document: Record<string, unknown>): document is Record<string, unknown> & OpenAPI3 {
  return typeof document.openapi === 'string' && document.openapi.startsWith('3.') && typeof document.info === 'object';
}
