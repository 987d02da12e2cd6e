// Builds the web client into dist/web: index.html (served by src/http/web-client.ts, never cached)
// and content-hashed files under assets/ (served as immutable under /static/web/assets/).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/static/web/',
  // Preact's JSX runtime instead of React's, with no plugin needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
  },
  logLevel: 'warn',
});
