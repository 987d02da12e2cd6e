// Reads what bench/lib/loop-probe.mjs wrote in the server process: the worst event-loop delay
// within a time window.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The node flags that load the probe into a server process. */
export const LOOP_PROBE_FLAGS = ['--import', join(dirname(fileURLToPath(import.meta.url)), 'loop-probe.mjs')];

/**
 * The longest delay (ms) the probe saw between `from` and `to` (epoch ms), or NaN without data.
 * A block is reported on the line written when it ends, so a short grace period follows `to`.
 */
export function worstLoopDelay(file: string, from: number, to: number, graceMs = 300): number {
  if (!existsSync(file)) return NaN;
  let worst = NaN;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [at, delay] = line.split(' ').map(Number);
    if (at === undefined || delay === undefined || !Number.isFinite(at) || at < from || at > to + graceMs) continue;
    if (!(worst >= delay)) worst = delay;
  }
  return worst;
}
