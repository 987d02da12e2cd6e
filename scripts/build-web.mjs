// Builds the web client (web/) with Vite into dist/web, apart from the server's build
// (scripts/build.mjs): index.html plus content-hashed assets that src/http/web-client.ts serves.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export async function buildWeb() {
  await build({ configFile: fileURLToPath(new URL('../web/vite.config.ts', import.meta.url)) });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWeb();
