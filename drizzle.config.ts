import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each module owns its tables (src/modules/<name>/tables.ts); http/, jobs/ and metrics/ keep the shared mechanisms' own.
  schema: [
    './src/modules/*/tables.ts',
    './src/http/tables.ts',
    './src/jobs/tables.ts',
    './src/metrics/tables.ts',
    './src/sandbox/schema.ts',
  ],
  out: './src/db/migrations',
});
