import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The dashboard's build (`npm run build:dashboard`, part of `npm run build`, which `npm ci`
 * runs): one entry page whose scripts and styles are files of this origin, nothing inline,
 * so the page's policy can forbid inline script and style.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    // No inline data: URLs for assets: the policy allows images from this origin only.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    target: 'es2022',
  },
});
