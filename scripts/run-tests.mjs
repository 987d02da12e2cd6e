// Runs every *.test.ts under src/, test/ and bench/ with node's test runner through tsx.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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
let files = [...find('src'), ...find('test'), ...find('bench')].sort();
if (filter.length > 0) files = files.filter((f) => filter.some((part) => f.includes(part)));
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
