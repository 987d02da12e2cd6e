// Confab as operators run it: compiled and bundled JavaScript (npm run build), rebuilt when src/ changed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const BUILD_TIMEOUT_MS = 600_000;

/** Node flags of `npm start` (package.json), so benchmarks run the server as operators do. */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8'];

/** Compiles src/ into dist/ when a source changed since the last build (scripts/build.mjs); returns npm start's entry point. */
export function ensureCompiled(root: string, log: (line: string) => void): string {
  const entry = join(root, 'dist', 'confab.js');
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-changed'], {
    cwd: root,
    encoding: 'utf8',
    timeout: BUILD_TIMEOUT_MS,
  });
  // tsc still writes JavaScript when some file has a type error; only a missing entry point is fatal.
  if (result.status !== 0) log(`tsc reported type errors (exit ${result.status}); using the JavaScript it wrote anyway`);
  if (!existsSync(entry)) throw new Error(`compiling failed: ${result.stderr || result.stdout}`);
  return entry;
}
