import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool, type Database } from '../../src/db/connection.ts';
import { installModules } from '../../src/modules.ts';
import { withDatabase } from './global-setup.ts';

/** A fresh, migrated database of this test file's own, dropped by `close()`. */
export async function createTestDatabase(): Promise<Database> {
  // As in every process of the service: tests calling services directly (emit, delete a
  // profile) need the modules' subscribers and deletion steps in place.
  installModules();
  const serverUrl = inject('serverUrl');
  const name = `sb_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject('templateDatabase')}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const pool = createPool(url, 10);
  return {
    url,
    pool,
    db: drizzle(pool),
    embedded: false,
    close: async () => {
      await pool.end();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
