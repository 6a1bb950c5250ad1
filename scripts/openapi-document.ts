/**
 * The service's OpenAPI document, built without a database: the app is built on a pool that
 * never connects (building the routes asks the database nothing), asked for its document, and
 * closed. `npm run build:client` generates the typed client's types from it
 * (scripts/build-client.ts); test/client/drift.test.ts checks that it is the running app's.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createPool } from '../src/db/connection.ts';
import { createPlatforms } from '../src/platforms/index.ts';

/** The document as `GET /openapi.json` answers it on a service without PUBLIC_URL (so no `servers`). */
export async function openapiDocument(): Promise<Record<string, unknown>> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-openapi-'));
  // Nothing listens on port 1: a query would fail at once instead of reaching a real database.
  const pool = createPool('postgres://nobody@127.0.0.1:1/none', 1);
  try {
    // Only the settings every deployment has; the rest at their defaults, as in the tests' app.
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    // The routes are built without calling a platform; the adapters point where nothing listens.
    const platforms = createPlatforms({ ...config, sandboxUrl: 'http://127.0.0.1:1/sandbox' });
    const app = await buildApp({
      config,
      database: { url: '', pool, db: drizzle(pool), embedded: false, close: async () => {} },
      secretKey: Buffer.alloc(32),
      platforms: () => platforms,
    });
    try {
      await app.ready();
      // Through JSON, as a client receives it (no undefined members, no shared references).
      return JSON.parse(JSON.stringify(app.swagger())) as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    await pool.end();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
