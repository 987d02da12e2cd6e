// One load measurement with autocannon: a warm-up that is thrown away, then a timed run.
// Latencies are kept per response (autocannon's own histogram rounds to whole milliseconds).
import autocannon from 'autocannon';
import { HOST } from './servers.js';

export interface LoadSpec {
  title: string;
  port: number;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A fresh body per request (n counts the requests of one connection set). */
  bodyFor?: (n: number) => string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

export interface LoadResult {
  title: string;
  connections: number;
  durationSeconds: number;
  /** Answers with a 2xx status. */
  ok: number;
  /** 2xx answers per second. */
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** Latency samples kept per run; enough for minutes of the fastest route. */
const MAX_SAMPLES = 5_000_000;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One autocannon run of `seconds` (no warm-up). */
export function runLoad(spec: LoadSpec, seconds: number): Promise<LoadResult> {
  let samples = new Float64Array(1 << 16);
  let count = 0;
  let sent = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://${HOST}:${spec.port}${spec.path}`,
        method: spec.method,
        headers: spec.headers ?? {},
        ...(spec.body !== undefined ? { body: spec.body } : {}),
        // Not autocannon's idReplacement: its Content-Length assumes longer ids than it inserts.
        ...(spec.bodyFor ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: spec.bodyFor!(sent++) }) }] } : {}),
        connections: spec.connections,
        duration: seconds,
        timeout: 30,
      },
      (error, result) => {
        if (error) return reject(error);
        const sorted = samples.subarray(0, count).sort();
        const statusCodes = Object.fromEntries(
          Object.entries((result as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {}).map(
            ([code, stat]) => [code, stat.count],
          ),
        );
        resolve({
          title: spec.title,
          connections: spec.connections,
          durationSeconds: result.duration,
          ok: result['2xx'],
          perSecond: result['2xx'] / result.duration,
          p50: percentile(sorted, 50),
          p90: percentile(sorted, 90),
          p99: percentile(sorted, 99),
          max: percentile(sorted, 100),
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          statusCodes,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode < 200 || statusCode >= 300 || count >= MAX_SAMPLES) return;
      if (count === samples.length) {
        const grown = new Float64Array(samples.length * 2);
        grown.set(samples);
        samples = grown;
      }
      samples[count++] = responseTime;
    });
  });
}

/** `onMeasuring` is called as the measured run begins, after the warm-up. */
export async function measure(spec: LoadSpec, onMeasuring?: () => void): Promise<LoadResult> {
  if (spec.warmupSeconds > 0) await runLoad(spec, spec.warmupSeconds);
  onMeasuring?.();
  return runLoad(spec, spec.durationSeconds);
}
