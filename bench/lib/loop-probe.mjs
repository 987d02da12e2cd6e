// Preloaded into the Confab process by bench/run.ts (node --import): every 100 ms it appends
// "<epoch ms> <longest event-loop delay since the previous line, ms>" to $BENCH_LOOP_DELAY_FILE.
// A request that holds the loop shows up as one line carrying its length.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    appendFileSync(file, `${Date.now()} ${(histogram.max / 1e6).toFixed(1)}\n`);
    histogram.reset();
  }, 100);
  timer.unref();
}
