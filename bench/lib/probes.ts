// Other requests served while a long operation runs: a few clients calling back to back until
// stopped, so a benchmark can show the server kept answering (and how slowly).
import { type Answer, percentile } from './http-client.js';

export interface Probes {
  /** Stops the clients; every latency in ms, sorted. */
  stop(): Promise<number[]>;
}

/** `clients` loops each calling `request(n)` (n counts that loop's calls) until stopped. */
export function startProbes(clients: number, request: (n: number) => Promise<Answer>): Probes {
  const latencies: number[] = [];
  let running = true;
  const loops = Array.from({ length: clients }, async (_, client) => {
    let n = client;
    while (running) {
      const started = performance.now();
      const answer = await request(n++);
      if (answer.status !== 200) throw new Error(`probe answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      latencies.push(performance.now() - started);
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return latencies.sort((a, b) => a - b);
    },
  };
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;

export function latencySummary(sorted: number[]): string {
  return `${sorted.length} requests, p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)}`;
}
