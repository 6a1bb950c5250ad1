import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from '../../scripts/openapi-document.ts';
import { clientTypes } from '../../tools/openapi-types/generate.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * The typed client's types (src/client/openapi-types.ts, committed) are what the running app's
 * OpenAPI document generates: a route whose schema changed without `npm run build:client` fails
 * here, before a user's client disagrees with the service.
 */

let t: TestApp;
let served: Record<string, unknown>;

beforeAll(async () => {
  t = await startTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  served = res.json();
});
afterAll(() => t.close());

/** The first line where two texts differ, shown for the failure message. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) {
      return `line ${i + 1}: committed ${JSON.stringify(a[i] ?? '(end of file)')}, generated ${JSON.stringify(b[i] ?? '(end of file)')}`;
    }
  }
  return 'none';
}

describe('the typed client', () => {
  it("has the types the running app's OpenAPI document generates", async () => {
    const committed = await fs.readFile(new URL('../../src/client/openapi-types.ts', import.meta.url), 'utf8');
    const generated = await clientTypes(served);
    if (committed !== generated) {
      expect.fail(
        `src/client/openapi-types.ts is not what the service's OpenAPI document generates: run npm run build:client (first difference at ${firstDifference(committed, generated)})`,
      );
    }
  });

  it('is generated from the document the app serves, though `npm run build:client` builds it without a database', async () => {
    expect(await openapiDocument()).toEqual(served);
  });
});
