// Runs every *.test.ts under src/, test/, bench/ and web/ with node's test runner through tsx, in a few
// processes side by side (TEST_SHARDS, default 2), each running its share of the files one after
// another. Arguments filter the files by path.
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

// Larger files tend to run longer: the largest go first, each to the lightest shard so far.
const shards = Array.from({ length: shardCount }, () => ({ files: [], weight: 0 }));
for (const file of [...files].sort((a, b) => statSync(b).size - statSync(a).size)) {
  const lightest = shards.reduce((a, b) => (b.weight < a.weight ? b : a));
  lightest.files.push(file);
  lightest.weight += statSync(file).size;
}

/** Each shard's report is printed whole when it ends, so the two never interleave. */
function run(shard, index) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test-reporter=spec', 'scripts/test-shard.mjs', ...shard.files.sort()],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      process.stdout.write(`\n## test shard ${index + 1} of ${shardCount} (${shard.files.length} files)\n`);
      process.stdout.write(Buffer.concat(output));
      process.stdout.write(`## shard ${index + 1} ${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`}\n`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(shards.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
