// Builds the web client (web/) with Vite into dist/web, apart from the server's build
// (scripts/build.mjs): index.html plus content-hashed assets that src/http/web-client.ts serves.
// With --if-changed it does nothing when nothing under web/ changed since the last successful
// build (dist/web/.build-stamp, dated when that build began), so `npm run dev` starts at once.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestMtime, writeStamp } from './build.mjs';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Whether dist/web may be out of date: no successful build yet, or a file under web/ changed since it began. */
export function needsWebBuild(root) {
  const stamp = join(root, 'dist', 'web', '.build-stamp');
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'web', 'index.html'))) return true;
  // node_modules aside.
  return newestMtime(join(root, 'web'), ['node_modules']) > statSync(stamp).mtimeMs;
}

export async function buildWeb(root = ROOT) {
  const started = new Date();
  const { build } = await import('vite');
  await build({ configFile: join(root, 'web', 'vite.config.ts') });
  writeStamp(join(root, 'dist', 'web', '.build-stamp'), started);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--if-changed') || needsWebBuild(ROOT)) await buildWeb();
}
