// One long-polling client on a keep-alive connection of its own, speaking just enough HTTP/1.1:
// it writes each GET /events whole and reads answers framed by Content-Length, as load generators
// do. Node's http client costs several times more per request, and on a shared two-core machine
// that cost is taken from the server being measured.
import { connect, type Socket } from 'node:net';
import { HOST } from './servers.js';

export interface PollAnswer {
  status: number;
  body: { events?: Array<Record<string, any>> } & Record<string, unknown>;
}

const HEADER_END = Buffer.from('\r\n\r\n');

export class LeanPoller {
  private socket: Socket | null = null;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: { resolve: (answer: PollAnswer) => void; reject: (error: Error) => void } | null = null;

  constructor(
    private readonly port: number,
    private readonly authorization: string,
  ) {}

  /** GET /api/v1/events with these parameters; resolves with the parsed answer. */
  poll(queueId: string, lastEventId: number): Promise<PollAnswer> {
    const socket = (this.socket ??= this.open());
    const path = `/api/v1/events?queue_id=${encodeURIComponent(queueId)}&last_event_id=${lastEventId}`;
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${HOST}:${this.port}\r\nAuthorization: ${this.authorization}\r\n\r\n`);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private open(): Socket {
    const socket = connect(this.port, HOST);
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.read(chunk));
    const fail = (error: Error) => {
      this.socket = null;
      this.buffered = Buffer.alloc(0);
      this.pending?.reject(error);
      this.pending = null;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
    return socket;
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headerEnd = this.buffered.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const head = this.buffered.toString('latin1', 0, headerEnd);
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
    if (!Number.isFinite(length)) throw new Error(`an answer without Content-Length: ${head}`);
    const end = headerEnd + HEADER_END.length + length;
    if (this.buffered.length < end) return;
    const body = JSON.parse(this.buffered.toString('utf8', headerEnd + HEADER_END.length, end));
    this.buffered = this.buffered.subarray(end);
    const pending = this.pending;
    this.pending = null;
    pending?.resolve({ status: Number(head.slice(9, 12)), body });
  }
}
