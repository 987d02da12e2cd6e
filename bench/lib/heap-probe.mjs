// Preloaded into the Confab process by bench/footprint.ts (node --import): on SIGUSR2 it writes
// the process's memory figures and V8 heap spaces to $BENCH_HEAP_FILE.json and a heap snapshot to
// $BENCH_HEAP_FILE.heapsnapshot, then $BENCH_HEAP_FILE.done, so the bench knows both are whole.
import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from 'node:v8';

const file = process.env.BENCH_HEAP_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    const figures = {
      memoryUsage: process.memoryUsage(),
      heap: getHeapStatistics(),
      spaces: getHeapSpaceStatistics(),
    };
    writeFileSync(`${file}.json`, JSON.stringify(figures, null, 2));
    writeHeapSnapshot(`${file}.heapsnapshot`);
    writeFileSync(`${file}.done`, '');
  });
}
