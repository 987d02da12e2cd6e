// One HTTP/1.1 exchange written by hand on a new connection, for tests of the poll paths that read
// requests straight from the socket (src/http/raw-polls.ts).
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** The status line and header lines, as sent. */
  head: string;
  body: any;
  /** Answered by the socket path, which capitalizes header names (Node's server does not). */
  raw: boolean;
}

/** Writes `request` as the first request of a new connection and reads one answer with a JSON body. */
export function rawRequest(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffered = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.toString('latin1', 0, end);
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]);
      if (!Number.isFinite(length) || buffered.length < end + 4 + length) return;
      socket.destroy();
      resolve({
        status: Number(head.slice(9, 12)),
        head,
        body: JSON.parse(buffered.toString('utf8', end + 4, end + 4 + length)),
        raw: head.includes('\r\nContent-Type: '),
      });
    });
    socket.write(request);
  });
}
