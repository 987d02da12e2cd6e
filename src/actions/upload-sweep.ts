// The periodic job that removes uploads no message links once they are older than the
// configured number of days (the reference's DELETE_UNCLAIMED_ATTACHMENTS_DAYS).
import type { Services } from '../services.js';
import { removeUnclaimedAttachments } from './attachments.js';
import { runSystemAction } from './context.js';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** One pass; answers how many uploads were removed. */
export async function sweepUnclaimedUploads(services: Services): Promise<number> {
  const maxAge = services.config.unclaimedUploadDays * 86400;
  let total = 0;
  for (;;) {
    const removed = await runSystemAction(services, (ctx) => removeUnclaimedAttachments(ctx, maxAge));
    total += removed;
    if (removed === 0) return total;
  }
}

/** Runs the sweep every hour until the returned function is called. */
export function scheduleUploadSweep(services: Services): () => void {
  const timer = setInterval(() => {
    // In a cluster, one process takes each turn.
    Promise.resolve(services.cluster ? services.cluster.takeTurn('upload-sweep', SWEEP_INTERVAL_MS) : true)
      .then((mine) => (mine ? sweepUnclaimedUploads(services) : undefined))
      .catch((error: unknown) => services.log?.warn({ err: error }, 'the unclaimed-upload sweep failed'));
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
