import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/schema.ts', './src/sandbox/schema.ts'],
  out: './src/db/migrations',
});
