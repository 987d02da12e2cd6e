// Bundles the compiled server (dist/src/main.js) into one file, dist/confab.js, which `npm start`
// runs. Node spends most of a start resolving, reading and compiling some 1,500 small modules
// (ours and the packages'); one minified file starts in about half the CPU time and keeps a
// smaller copy of the source text in the heap. dist/src stays as tsc wrote it: modules the bundle
// reaches at run time (worker threads, createRequire) are found there as before.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Packages loaded from node_modules at run time: native addons, the lazily loaded ones, and pino
 * (its transports locate files through __dirname). Fastify's schema compilers (ajv and
 * fast-json-stringify, src/app.ts loads them only if a route ever has a schema) and its inject()
 * helper are left out too: inside the bundle V8 would scan their 260 KB on every start.
 */
const EXTERNAL = [
  'better-sqlite3', 'pg', 'katex', 'nodemailer', 'highlight.js', 'pino', 'sharp', 'ioredis', 'prom-client',
  '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'light-my-request',
  // The password-strength estimator's dictionaries (some 2 MB), loaded at the first password check.
  '@zxcvbn-ts/core', '@zxcvbn-ts/language-common',
];

/** CommonJS code inside an ES module bundle still calls require() for Node's built-ins. */
const BANNER = "import { createRequire as __confabRequire } from 'node:module'; const require = __confabRequire(import.meta.url);";

/**
 * Each compiled module's import.meta.url becomes its own file's URL again (relative to the
 * bundle, so a moved checkout still works): `new URL('./worker.js', import.meta.url)` and
 * createRequire(import.meta.url) resolve from where the module was, not from the bundle.
 */
function ownModuleUrls(distDir) {
  return {
    name: 'own-module-urls',
    setup(build) {
      build.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, (args) => {
        const path = relative(distDir, args.path).split(sep).join('/');
        const url = `new URL(${JSON.stringify(`./${path}`)}, import.meta.url).href`;
        return { contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', url), loader: 'js' };
      });
    },
  };
}

/**
 * zod's namespace object re-exports every language's error messages (about 260 KB minified, an
 * eighth of the bundle); the server uses zod's default, English, which zod loads by its own
 * import. The namespace keeps `en` and nothing else.
 */
function englishZodLocalesOnly() {
  return {
    name: 'english-zod-locales-only',
    setup(build) {
      build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
        contents: 'export { default as en } from "./en.js";\n',
        loader: 'js',
      }));
    },
  };
}

/**
 * V8 keeps a script's source in the heap for as long as the script lives, two bytes per character
 * if any character is outside Latin-1 and one byte otherwise. esbuild leaves non-ASCII characters
 * in regular expressions and comments; \u escapes mean the same in strings, templates, regular
 * expressions and identifiers, so escaping every UTF-16 unit above 0x7f halves the kept source.
 */
export function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Writes dist/confab.js; returns false when esbuild is not installed (dist/confab.js then loads dist/src/main.js). */
export async function bundle(root) {
  const distDir = join(root, 'dist');
  const outfile = join(distDir, 'confab.js');
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    writeFileSync(outfile, "// esbuild was not installed when this was built: the server runs unbundled.\nimport './src/main.js';\n");
    return false;
  }
  const result = await esbuild.build({
    entryPoints: [join(distDir, 'src', 'main.js')],
    absWorkingDir: root,
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    banner: { js: BANNER },
    minify: true,
    // Error classes, Fastify plugins and log lines use function and class names.
    keepNames: true,
    legalComments: 'none',
    sourcemap: true,
    write: false,
    logLevel: 'warning',
    plugins: [ownModuleUrls(distDir), englishZodLocalesOnly()],
  });
  for (const file of result.outputFiles) {
    // The escapes shift the map's columns after a non-ASCII character on a line: a handful of places.
    writeFileSync(file.path, file.path.endsWith('.js') ? asciiOnly(file.text) : file.text);
  }
  return true;
}
