// `npm install` builds the server, `npm start` runs the build as it is, and `npm run dev` compiles
// only when a source changed (scripts/build.mjs). The compiler is the outside world here: a stand-in
// tsc records each run, so the test neither waits for tsc nor depends on the machine's speed. The
// bundler (scripts/bundle.mjs) is tested on a small compiled tree of its own with the real esbuild.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const FAKE_TSC = `
const fs = require('node:fs');
fs.appendFileSync('tsc-runs.log', process.argv.slice(2).join(' ') + '\\n');
const code = Number(fs.existsSync('tsc-exit') ? fs.readFileSync('tsc-exit', 'utf8') : 0);
fs.mkdirSync('dist/src', { recursive: true });
fs.writeFileSync('dist/src/main.js', '');
process.exit(code);
`;

describe('building the server', () => {
  const root = mkdtempSync(join(tmpdir(), 'confab-build-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  const past = (seconds: number) => new Date(Date.now() - seconds * 1000);
  const runs = () => (existsSync(join(root, 'tsc-runs.log')) ? readFileSync(join(root, 'tsc-runs.log'), 'utf8').split('\n').filter(Boolean).length : 0);
  const build = (...args: string[]) => spawnSync(process.execPath, ['scripts/build.mjs', ...args], { cwd: root, encoding: 'utf8' });
  /** Dates every input and the stamp, so the test never depends on how fine the file system's clock is. */
  function age(inputsSecondsAgo: number, stampSecondsAgo: number) {
    for (const path of ['src', 'src/lib', 'src/main.ts', 'src/lib/rule.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json']) {
      if (existsSync(join(root, path))) utimesSync(join(root, path), past(inputsSecondsAgo), past(inputsSecondsAgo));
    }
    utimesSync(join(root, 'dist', '.build-stamp'), past(stampSecondsAgo), past(stampSecondsAgo));
  }

  beforeEach(() => {
    rmSync(root, { recursive: true, force: true });
    for (const dir of ['scripts', 'src/lib', 'node_modules/typescript/bin']) mkdirSync(join(root, dir), { recursive: true });
    for (const script of ['build.mjs', 'bundle.mjs']) copyFileSync(join(ROOT, 'scripts', script), join(root, 'scripts', script));
    writeFileSync(join(root, 'node_modules', 'typescript', 'bin', 'tsc'), FAKE_TSC);
    for (const file of ['src/main.ts', 'src/lib/rule.ts', 'tsconfig.json', 'tsconfig.build.json']) writeFileSync(join(root, file), '');
    writeFileSync(join(root, 'package.json'), '{}');
  });

  it('compiles with the build configuration and leaves a stamp when tsc succeeds', () => {
    assert.equal(build().status, 0);
    assert.equal(readFileSync(join(root, 'tsc-runs.log'), 'utf8'), '-p tsconfig.build.json\n');
    assert.ok(existsSync(join(root, 'dist', '.build-stamp')));
  });

  it('with --if-changed, compiles only when there is no build yet or a source is newer than it', () => {
    assert.equal(build('--if-changed').status, 0);
    assert.equal(runs(), 1);
    age(60, 30);
    assert.equal(build('--if-changed').status, 0);
    assert.equal(runs(), 1);
    utimesSync(join(root, 'src', 'lib', 'rule.ts'), past(10), past(10));
    assert.equal(build('--if-changed').status, 0);
    assert.equal(runs(), 2);
    age(60, 30);
    utimesSync(join(root, 'tsconfig.build.json'), past(10), past(10));
    build('--if-changed');
    assert.equal(runs(), 3);
  });

  it('counts a deleted source as a change, and a missing dist/ as no build', () => {
    build();
    age(60, 30);
    rmSync(join(root, 'src', 'lib', 'rule.ts'));
    utimesSync(join(root, 'src', 'lib'), past(10), past(10));
    build('--if-changed');
    assert.equal(runs(), 2);
    rmSync(join(root, 'dist'), { recursive: true });
    build('--if-changed');
    assert.equal(runs(), 3);
  });

  it('without esbuild installed, leaves a dist/confab.js that runs the compiled entry point', () => {
    assert.equal(build().status, 0);
    writeFileSync(join(root, 'dist', 'src', 'main.js'), "process.stdout.write('compiled entry ran');");
    const run = spawnSync(process.execPath, ['dist/confab.js'], { cwd: root, encoding: 'utf8' });
    assert.equal(run.stdout, 'compiled entry ran');
  });

  it('counts a missing bundle as no build', () => {
    build();
    age(60, 30);
    rmSync(join(root, 'dist', 'confab.js'));
    build('--if-changed');
    assert.equal(runs(), 2);
  });

  it('leaves no stamp when tsc fails, so the next --if-changed compiles again', () => {
    build();
    age(60, 30);
    utimesSync(join(root, 'src', 'main.ts'), past(10), past(10));
    writeFileSync(join(root, 'tsc-exit'), '2');
    assert.equal(build('--if-changed').status, 2);
    assert.equal(existsSync(join(root, 'dist', '.build-stamp')), false);
    assert.equal(build('--if-changed').status, 2);
    assert.equal(runs(), 3);
  });
});

describe('bundling the compiled server into dist/confab.js', () => {
  const root = mkdtempSync(join(tmpdir(), 'confab-bundle-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  it("keeps each module's own import.meta.url and non-ASCII text, and writes only ASCII", async () => {
    // A compiled tree in miniature: a nested module that locates itself, as worker threads and createRequire do.
    write('dist/src/lib/where.js', "import { fileURLToPath } from 'node:url';\nexport const where = () => fileURLToPath(new URL('./beside.js', import.meta.url));\n");
    write('dist/src/main.js', [
      "import { where } from './lib/where.js';",
      "const text = 'déjà vu ✔ 😀';",
      "console.log(JSON.stringify({ where: where(), text, matches: /^[✔ ]+ok$/u.test('✔ ok') }));",
    ].join('\n'));
    const { bundle } = await import('../../scripts/bundle.mjs');
    assert.equal(await bundle(root), true);
    const bundled = readFileSync(join(root, 'dist', 'confab.js'));
    assert.equal(bundled.findIndex((byte) => byte > 0x7f), -1);
    const run = spawnSync(process.execPath, ['dist/confab.js'], { cwd: root, encoding: 'utf8' });
    assert.equal(run.stderr, '');
    assert.deepEqual(JSON.parse(run.stdout), { where: join(root, 'dist', 'src', 'lib', 'beside.js'), text: 'déjà vu ✔ 😀', matches: true });
  });

  it('escapes every UTF-16 unit above 0x7f', async () => {
    const { asciiOnly } = await import('../../scripts/bundle.mjs');
    assert.equal(asciiOnly("a = 'é😀';"), "a = '\\u00e9\\ud83d\\ude00';");
  });
});

describe('building the web client only when it changed', () => {
  const root = mkdtempSync(join(tmpdir(), 'confab-web-build-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const past = (seconds: number) => new Date(Date.now() - seconds * 1000);

  it('needs a build without one, not after one, and again once a file under web/ is newer', async () => {
    const { needsWebBuild } = (await import(join(ROOT, 'scripts', 'build-web.mjs'))) as { needsWebBuild(root: string): boolean };
    mkdirSync(join(root, 'web', 'src'), { recursive: true });
    writeFileSync(join(root, 'web', 'src', 'app.tsx'), '');
    utimesSync(join(root, 'web', 'src', 'app.tsx'), past(60), past(60));
    utimesSync(join(root, 'web', 'src'), past(60), past(60));
    utimesSync(join(root, 'web'), past(60), past(60));
    assert.equal(needsWebBuild(root), true, 'no build yet');
    mkdirSync(join(root, 'dist', 'web'), { recursive: true });
    writeFileSync(join(root, 'dist', 'web', 'index.html'), '');
    writeFileSync(join(root, 'dist', 'web', '.build-stamp'), '');
    utimesSync(join(root, 'dist', 'web', '.build-stamp'), past(30), past(30));
    assert.equal(needsWebBuild(root), false, 'built after the last change');
    writeFileSync(join(root, 'web', 'src', 'app.tsx'), 'changed');
    assert.equal(needsWebBuild(root), true, 'a source changed since');
  });
});

describe('the npm scripts', () => {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;

  it('build on install, start the built server without compiling, and compile for dev only on change', () => {
    // The server's build, then the web client's (scripts/build-web.mjs, Vite into dist/web).
    assert.equal(scripts.prepare, 'node scripts/build.mjs && npm run build:web');
    assert.equal(scripts.build, 'node scripts/build.mjs && npm run build:web');
    assert.equal(scripts['build:web'], 'node scripts/build-web.mjs');
    assert.equal(scripts.start, 'node --max-semi-space-size=8 dist/confab.js serve');
    assert.equal(
      scripts.dev,
      'node scripts/build.mjs --if-changed && node scripts/build-web.mjs --if-changed && node --max-semi-space-size=8 dist/confab.js serve --dev',
    );
  });

  it('keep the build output and the compiler state out of git', () => {
    const ignored = readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n');
    assert.ok(ignored.includes('dist/') && ignored.includes('*.tsbuildinfo'), ignored.join(', '));
  });
});
