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

/** Latest modification of a file or folder and everything under it (a deletion dates its folder), skipping the names given. */
export function newestMtime(path, skip = []) {
  const stat = statSync(path);
  let newest = stat.mtimeMs;
  if (stat.isDirectory()) {
    for (const name of readdirSync(path)) if (!skip.includes(name)) newest = Math.max(newest, newestMtime(join(path, name), skip));
  }
  return newest;
}

/** Latest modification of the inputs: every file and folder under src/ and the configs. */
export function newestInput(root) {
  return Math.max(...['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((name) => newestMtime(join(root, name))));
}

/** Leaves a build's stamp, dated to when the build began, so edits made meanwhile count as changes. */
export function writeStamp(stamp, started) {
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${started.toISOString()}\n`);
  utimesSync(stamp, started, started);
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
  writeStamp(stamp, started);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ifChanged = process.argv.includes('--if-changed');
  process.exitCode = ifChanged && !needsBuild(ROOT) ? 0 : await build(ROOT);
}
