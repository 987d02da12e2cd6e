// A small HTTP client for many concurrent long-lived requests (autocannon measures one route at
// a time; the event benchmarks need thousands of independent clients).
import { Agent, request } from 'node:http';
import { HOST } from './servers.js';

export const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 100_000 });

export interface Answer {
  status: number;
  body: Record<string, any>;
  /** performance.now() when the last byte arrived, before the body was parsed. */
  receivedAt: number;
}

export function basicAuth(email: string, apiKey: string): string {
  return `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
}

/** One API call; form-encodes params (JSON inside values), in the query string for GET and DELETE. */
export function call(port: number, method: string, path: string, authorization: string, params: Record<string, unknown> = {}, signal?: AbortSignal): Promise<Answer> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  const encoded = form.toString();
  const inQuery = method === 'GET' || method === 'DELETE';
  const headers: Record<string, string> = { authorization };
  if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
  return new Promise((resolve, reject) => {
    const req = request(
      { host: HOST, port, method, path: `/api/v1${path}${inQuery && encoded ? `?${encoded}` : ''}`, headers, agent, signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const receivedAt = performance.now();
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), receivedAt });
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(inQuery ? undefined : encoded);
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
