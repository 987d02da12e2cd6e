// Compiles src/ into dist/ (tsc -p tsconfig.build.json, incremental through dist/.tsbuildinfo),
// then bundles it into dist/confab.js, what `npm start` runs (scripts/bundle.mjs).
// With --if-changed it does nothing when no source changed since the last successful build, so
// `npm run dev` starts as fast as `npm start` (starting tsc alone takes seconds); a successful
// build leaves dist/.build-stamp, dated when that build began.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Latest modification of the inputs: every file and folder under src/ (a deletion dates its folder) and the configs. */
export function newestInput(root) {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path);
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(join(root, 'src'));
  for (const name of ['tsconfig.json', 'tsconfig.build.json', 'package.json']) visit(join(root, name));
  return newest;
}

/** Whether dist/ may be out of date: no successful build yet, or an input changed since it began. */
export function needsBuild(root) {
  const stamp = join(root, 'dist', '.build-stamp');
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'src', 'main.js')) || !existsSync(join(root, 'dist', 'confab.js'))) return true;
  return newestInput(root) > statSync(stamp).mtimeMs;
}

/** Runs tsc and the bundler; on success dates the stamp to the build's start, so edits made meanwhile count as changes. */
export async function build(root) {
  const stamp = join(root, 'dist', '.build-stamp');
  rmSync(stamp, { force: true });
  const started = new Date();
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) return result.status ?? 1;
  await bundle(root);
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${started.toISOString()}\n`);
  utimesSync(stamp, started, started);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ifChanged = process.argv.includes('--if-changed');
  process.exitCode = ifChanged && !needsBuild(ROOT) ? 0 : await build(ROOT);
}
