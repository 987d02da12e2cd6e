// A fresh clone must be able to run its own tests: no code may read files from beside the checkout
// (the team's shared folder) or from fixed machine paths. .ci/run proves it end to end by running
// the suite from a copy with nothing beside it; this catches the mistake at once, naming the line.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The team's folder beside the checkout, named apart so that this file does not match itself. */
const SIBLING = 'shared';
const OUTSIDE = [new RegExp(`\\.\\./${SIBLING}/`), /['"`]\/work\//, /['"`]\/home\//];

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|mjs|js|sh)$/.test(name) || !name.includes('.')) out.push(path);
  }
  return out;
}

describe('the repository carries what it runs', () => {
  it('has no code that reads from beside the checkout or from fixed machine paths', () => {
    const found: string[] = [];
    for (const file of ['src', 'test', 'bench', 'scripts', 'bin', '.ci'].flatMap((dir) => sources(join(ROOT, dir)))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (OUTSIDE.some((pattern) => pattern.test(line))) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, []);
  });
});
