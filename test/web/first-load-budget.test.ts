// The web client's first load stays within its budget (150 KB of gzipped JavaScript), and what may
// load later (the emoji picker, the invitation dialog, KaTeX's stylesheet) is not part of it. The
// first load is the entry script of the built index.html and every chunk it imports statically.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 150 * 1024;

/** dist/web, which the test runner builds before any test that calls this. */
function builtWebClient(): string {
  return join(process.cwd(), 'dist', 'web');
}

/** The entry's file name and every chunk reachable from it through static imports. */
function firstLoadScripts(dir: string): string[] {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]* src="\/static\/web\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
  assert.ok(entry, 'index.html names its entry script');
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(dir, file), 'utf8');
    // Static imports only: `import{a}from"./x.js"` or `import"./x.js"`, never `import("./x.js")`.
    for (const match of code.matchAll(/\bimport\s*(?:[\w{},\s*$]+?\s*from\s*)?["'`]\.\/([\w.-]+\.js)["'`]/g)) visit(join('assets', match[1]!));
  };
  visit(entry);
  return [...seen];
}

describe('the web client first load', () => {
  it('is at most 150 KB of gzipped JavaScript, without the parts that load when first needed', () => {
    const dir = builtWebClient();
    const scripts = firstLoadScripts(dir);
    const gzipped = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(join(dir, file))).length, 0);
    assert.ok(gzipped <= BUDGET_BYTES, `${(gzipped / 1024).toFixed(1)} KB gzipped in ${scripts.join(', ')}`);
    for (const lazy of ['emoji-picker', 'invite-dialog', 'katex']) {
      assert.ok(!scripts.some((file) => file.includes(lazy)), `${lazy} is loaded only when needed`);
    }
    const entry = readFileSync(join(dir, scripts[0]!), 'utf8');
    assert.match(entry, /import\(`\.\/emoji-picker-[\w-]+\.js`\)/, 'the emoji picker is imported on demand');
  });
});
