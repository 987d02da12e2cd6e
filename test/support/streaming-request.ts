// A request whose body the test writes a piece at a time over a real connection, to see what the
// server answers before the body has all arrived (a server that buffers it never answers).
import { request } from 'node:http';

export interface EarlyAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface StreamingRequest {
  /** Writes a piece of the body; pieces written after the server hung up are dropped. */
  write(piece: string | Buffer): Promise<void>;
  /** The answer, or a rejection if none comes within `timeoutMs` (the body still unsent). */
  answer(timeoutMs?: number): Promise<EarlyAnswer>;
  close(): void;
}

export function streamingRequest(port: number, path: string, headers: Record<string, string>): StreamingRequest {
  const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers });
  let hungUp = false;
  req.on('error', () => (hungUp = true));
  const answered = new Promise<EarlyAnswer>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
        } catch (error) {
          reject(error);
        }
      });
    });
  });
  answered.catch(() => undefined);
  return {
    async write(piece) {
      if (hungUp || req.destroyed) return;
      if (!req.write(piece)) await new Promise((resolve) => req.once('drain', resolve).once('close', resolve));
    },
    answer(timeoutMs = 10_000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms while the body was still being sent`)), timeoutMs);
      });
      return Promise.race([answered, timeout]).finally(() => clearTimeout(timer));
    },
    close() {
      req.destroy();
    },
  };
}
