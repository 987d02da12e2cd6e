// `confab serve --workers N`: N processes on one port (Node's cluster module hands each new
// connection to one of them), joined through Redis like processes on separate machines. The
// primary process prepares the store first (migrations, the first organization), so the workers
// do not race to do it, then keeps N workers running until it is told to stop.
import cluster from 'node:cluster';
import type { Config } from '../config.js';

/** A worker that dies sooner than this after starting is restarted only after a pause. */
const QUICK_DEATH_MS = 5000;
const RESTART_PAUSE_MS = 2000;

export function isWorker(): boolean {
  return cluster.isWorker;
}

export async function runWorkers(config: Config, prepare: () => Promise<void>): Promise<void> {
  await prepare();
  let stopping = false;
  const started = new Map<number, number>();
  const fork = () => {
    const worker = cluster.fork();
    started.set(worker.id, Date.now());
  };
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker.id) ?? 0);
    started.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`Worker ${worker.process.pid} ended (${signal ?? `code ${code}`}); starting another.`);
    setTimeout(fork, lived < QUICK_DEATH_MS ? RESTART_PAUSE_MS : 0);
  });
  for (let i = 0; i < config.workers; i++) fork();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopping = true;
      // Each worker stops gracefully, handing its event queues to those still up or saving them.
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  }
}
