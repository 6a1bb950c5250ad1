import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { serverBundle } from '../../bin/server-bundle.js';
import { createPool } from '../../src/db/connection.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { runMigrations } from '../../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A server URL (any database on it) where tests may create databases. */
    serverUrl: string;
    /** A migrated database to copy for each test file. */
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL for the run: the embedded one in a temporary DATA_DIR, or the server of
 * DATABASE_URL (its user needs CREATEDB). Migrations run once into a template database;
 * each test file gets a copy of it.
 */
export default async function setup(project: TestProject) {
  // Once here, not in each of the test files that start the CLI at the same time.
  await serverBundle();
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-test-'));
    embedded = await startEmbeddedPostgres(dataDir);
    serverUrl = embedded.url;
  }
  const template = `sb_template_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const pool = createPool(withDatabase(serverUrl, template), 2);
  try {
    await runMigrations(pool);
  } finally {
    await pool.end();
  }
  project.provide('serverUrl', serverUrl);
  project.provide('templateDatabase', template);

  return async () => {
    await admin.query(`drop database if exists ${template} with (force)`).catch(() => {});
    await admin.end();
    await embedded?.release();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
