// Confab as operators run it: compiled JavaScript (npm run build), rebuilt when src/ changed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const BUILD_TIMEOUT_MS = 600_000;

/** Node flags of `npm start` (package.json), so benchmarks run the server as operators do. */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

function newestSource(dir: string, depth = 0): number {
  if (depth > 20) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path, depth + 1));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Compiles src/ into dist/ unless dist/ is newer than every source file; returns the entry point. */
export function ensureCompiled(root: string, log: (line: string) => void): string {
  const entry = join(root, 'dist', 'src', 'main.js');
  if (existsSync(entry) && statSync(entry).mtimeMs >= newestSource(join(root, 'src'))) return entry;
  log('compiling src/ into dist/ (tsc -p tsconfig.build.json)...');
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    encoding: 'utf8',
    timeout: BUILD_TIMEOUT_MS,
  });
  // tsc still writes JavaScript when some file has a type error; only a missing entry point is fatal.
  if (result.status !== 0) log(`tsc reported type errors (exit ${result.status}); using the JavaScript it wrote anyway`);
  if (!existsSync(entry)) throw new Error(`compiling failed: ${result.stderr || result.stdout}`);
  return entry;
}
