// The layers of docs/ARCHITECTURE.md, held by reading the imports: lib/ is pure rules over plain
// data, so it may import only itself, the shared row types (src/types/) and the errors every layer
// throws; those two sit beneath lib/ and import nothing of the server. services.ts names adapters
// by their interfaces and reaches no HTTP code, and adapters/ reach no layer that calls them.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

/** Static imports, re-exports and dynamic imports, with their specifiers. */
const IMPORT = /\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

/** The source files under `dir`; tests are left out unless asked for. */
function sources(dir: string, withTests = false, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, withTests, out);
    else if (name.endsWith('.ts') && (withTests || !name.endsWith('.test.ts'))) out.push(path);
  }
  return out;
}

/** Each relative import of `file`, as a path under src/ without its extension (`lib/roles`). */
function localImports(file: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      for (const [, specifier] of text.matchAll(IMPORT)) {
        if (!specifier.startsWith('.')) continue; // node built-ins and npm packages
        const target = relative(SRC, resolve(dirname(file), specifier)).replace(/\.(js|ts|json)$/, '');
        found.push({ line: i + 1, target });
      }
    });
  return found;
}

/** `file:line -> target` for every import of the files that `allowed` refuses. */
function violations(files: string[], allowed: (target: string) => boolean): string[] {
  return files.flatMap((file) =>
    localImports(file)
      .filter(({ target }) => !allowed(target))
      .map(({ line, target }) => `${relative(ROOT, file)}:${line} -> ${target}`),
  );
}

const under = (target: string, ...dirs: string[]) => dirs.some((dir) => target.startsWith(`${dir}/`));
/** What lies beneath lib/: the row types and the errors. */
const beneathLib = (target: string) => under(target, 'types') || target === 'errors';

describe('layering', () => {
  it('lib/ imports only lib/, the shared row types and the errors', () => {
    assert.deepEqual(violations(sources(join(SRC, 'lib')), (target) => under(target, 'lib') || beneathLib(target)), []);
  });

  it('the row types and the errors import nothing of the server', () => {
    const files = [...sources(join(SRC, 'types')), join(SRC, 'errors.ts')];
    assert.deepEqual(violations(files, (target) => under(target, 'types')), []);
  });

  it('services.ts reaches no HTTP code', () => {
    assert.deepEqual(violations([join(SRC, 'services.ts')], (target) => !under(target, 'http', 'endpoints')), []);
  });

  it('adapters/ reach none of the layers that call them', () => {
    const callers = ['http', 'endpoints', 'actions', 'queries', 'events', 'cluster'];
    assert.deepEqual(violations(sources(join(SRC, 'adapters')), (target) => !under(target, ...callers)), []);
  });

  it('finds every kind of import it is meant to hold', () => {
    // Guards the reader above: a pattern that missed a form would let the rules pass vacuously.
    const file = join(SRC, 'queries', 'message-dicts.ts');
    assert.ok(localImports(file).some(({ target }) => target === 'db/schema'));
    const kinds = ["import { a } from '../x.js';", "export { b } from '../y.js';", "await import('../z.js');", "import '../w.js';"];
    const targets = kinds.flatMap((text) => [...text.matchAll(IMPORT)].map(([, specifier]) => specifier));
    assert.deepEqual(targets, ['../x.js', '../y.js', '../z.js', '../w.js']);
  });
});
