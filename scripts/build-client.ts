/**
 * `npm run build:client`: writes src/client/openapi-types.ts, the typed client's types, from
 * the service's OpenAPI document (built without a database, scripts/openapi-document.ts).
 * Run it after changing a route's schema; test/client/drift.test.ts fails until then.
 */
import fs from 'node:fs/promises';
import { clientTypes } from '../tools/openapi-types/generate.ts';
import { openapiDocument } from './openapi-document.ts';

const target = new URL('../src/client/openapi-types.ts', import.meta.url);
await fs.writeFile(target, await clientTypes(await openapiDocument()));
