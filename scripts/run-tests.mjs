// Runs every *.test.ts under src/, test/, bench/ and web/ with node's test runner through tsx, in
// batches of files, TEST_SHARDS (default 2) processes side by side. Arguments filter the files by path.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
let files = [...find('src'), ...find('test'), ...find('bench'), ...find('web')].sort();
if (filter.length > 0) files = files.filter((f) => filter.some((part) => f.includes(part)));
const shardCount = Math.max(1, Math.min(Number(process.env.TEST_SHARDS ?? 2), files.length));

// The browser suites serve the built web client from dist/web (and the budget test reads it): it is
// built here, once, when web/ changed, so that no suite rebuilds it (emptying it for a while) under
// another shard's pages.
if (files.some((file) => /browserSuite\(|builtWebClient\(/.test(readFileSync(file, 'utf8')))) {
  const built = spawnSync(process.execPath, ['scripts/build-web.mjs', '--if-changed'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
}

// The files go out in batches to TEST_SHARDS processes side by side: a process that finishes its
// batch takes the next, so a few slow files (those starting browsers or clusters, or sending every
// route hostile input) no longer hold one process for minutes while the other sits idle. Each batch
// is one process, loading the server's modules once for all its files; the largest batches (by file
// size, a rough guide to run time) go first.
const BATCHES_PER_PROCESS = 6;
const batchCount = Math.min(files.length, shardCount * BATCHES_PER_PROCESS);
const batches = Array.from({ length: batchCount }, () => ({ files: [], weight: 0 }));
for (const file of [...files].sort((a, b) => statSync(b).size - statSync(a).size)) {
  const lightest = batches.reduce((a, b) => (b.weight < a.weight ? b : a));
  lightest.files.push(file);
  lightest.weight += statSync(file).size;
}
batches.sort((a, b) => b.weight - a.weight);

/** Each batch's report is printed whole when it ends, so two never interleave. */
function run(batch, index) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test-reporter=spec', 'scripts/test-shard.mjs', ...batch.files.sort()],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      process.stdout.write(`\n## test batch ${index + 1} of ${batchCount} (${batch.files.length} files)\n`);
      process.stdout.write(Buffer.concat(output));
      process.stdout.write(`## batch ${index + 1} ${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`}\n`);
      resolve(code === 0);
    });
  });
}

let next = 0;
const results = [];
async function lane() {
  while (next < batches.length) {
    const index = next++;
    results[index] = await run(batches[index], index);
  }
}
await Promise.all(Array.from({ length: shardCount }, lane));
const failed = results.flatMap((ok, i) => (ok ? [] : [i + 1]));
process.stdout.write(failed.length === 0 ? `\n## all ${batchCount} batches passed\n` : `\n## failed batches: ${failed.join(', ')}\n`);
process.exit(failed.length === 0 ? 0 : 1);
