// One test process: imports the given test files in order, so node:test runs all their tests here.
// Loading the server's modules costs seconds per process; paying it once per shard instead of
// once per file is most of what keeps the suite short. A file that fails to load fails the run,
// and the others still run.
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) {
  try {
    await import(pathToFileURL(file).href);
  } catch (error) {
    console.error(`✖ ${file} could not be loaded:`, error);
    process.exitCode = 1;
  }
}
