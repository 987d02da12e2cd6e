// Long-poll connections served straight from the socket. A client keeps one connection for its
// event polls and repeats the same small GET on it all day; Node's HTTP machinery (request and
// response objects, header handling, events) costs more per poll than everything else the server
// does for it. Each new connection is read here first. While it carries plain polls (GET
// /api/v1/events with only queue_id, last_event_id and dont_block, credentials, and no body), they
// are answered here. At the first request that is anything else, or anything unusual, the
// connection is handed to Node's HTTP server with every byte not yet answered, at a request
// boundary, and stays there. A request is handed on whole or answered whole, so both parsers always
// agree on where requests begin and end.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { type PollReply, type PollServer, plainPollParams } from './event-poll.js';

/** Node's default limit on a request head. */
const MAX_HEAD_BYTES = 16 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EDGE_SPACE = /^[ \t]+|[ \t]+$/g;
/** Headers that give a GET a body, switch protocols or ask for anything but the plain exchange. */
const UNUSUAL = new Set(['content-length', 'transfer-encoding', 'expect', 'upgrade', 'te', 'trailer']);

interface PollHead {
  target: string;
  authorization: string;
  host: string;
}

/** A plain poll's request head (without its final blank line), or null for anything else. */
export function parsePollHead(head: string): PollHead | null {
  const lines = head.split('\r\n');
  const requestLine = lines[0]!;
  if (!requestLine.startsWith('GET ') || !requestLine.endsWith(' HTTP/1.1')) return null;
  const target = requestLine.slice(4, -9);
  // Visible ASCII only: no spaces, controls or bytes Node would refuse.
  if (!/^[\x21-\x7e]+$/.test(target)) return null;
  let authorization: string | undefined;
  let host: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0 || /[\r\n\0]/.test(line)) return null;
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return null;
    const value = line.slice(colon + 1).replace(EDGE_SPACE, '');
    switch (name.toLowerCase()) {
      case 'authorization':
        if (authorization !== undefined) return null;
        authorization = value;
        break;
      case 'host':
        if (host !== undefined) return null;
        host = value;
        break;
      case 'connection':
        if (value.toLowerCase() !== 'keep-alive') return null;
        break;
      default:
        if (UNUSUAL.has(name.toLowerCase())) return null;
    }
  }
  // Node's HTTP server refuses HTTP/1.1 requests without a Host header; it shall answer those.
  return authorization === undefined || host === undefined ? null : { target, authorization, host };
}

let dateSecond = -1;
let dateText = '';
/** The Date header's value, made once a second. */
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

class RawConnection {
  private buffered: Buffer = EMPTY;
  /** A poll is being answered (its credentials checked, or waiting for events). */
  private busy = false;
  private reading = false;
  private gone: (() => void) | null = null;
  private released = false;

  constructor(
    private readonly socket: Socket,
    private readonly owner: RawPolls,
  ) {
    socket.setNoDelay(true);
    socket.on('data', this.onData);
    socket.on('close', this.onClose);
    socket.on('error', this.onError);
    socket.on('timeout', this.onTimeout);
    // A client that stops sending has gone, as Node's HTTP server treats it: a waiting poll is dropped.
    socket.on('end', this.onError);
    this.idle();
  }

  /** Ends the connection now if no answer is owed on it (or `always`); otherwise after that answer. */
  close(always: boolean): void {
    if (always || !this.busy) this.socket.destroy();
  }

  private readonly onData = (chunk: Buffer): void => {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    if (!this.busy) this.readRequests();
  };

  private readonly onClose = (): void => {
    this.owner.forget(this);
    const gone = this.gone;
    this.gone = null;
    gone?.();
  };

  private readonly onError = (): void => void this.socket.destroy();
  private readonly onTimeout = this.onError;

  /** Between requests the connection may idle as long as the HTTP server's keep-alive allows. */
  private idle(): void {
    this.socket.setTimeout(this.owner.keepAliveMs());
  }

  private readRequests(): void {
    if (this.reading) return;
    this.reading = true;
    try {
      while (!this.busy && !this.released) {
        const end = this.buffered.indexOf(HEAD_END);
        // Node refuses heads past its limit; so it is Node that answers them.
        if (end > MAX_HEAD_BYTES || (end < 0 && this.buffered.length > MAX_HEAD_BYTES)) return this.handOff();
        if (end < 0) return;
        const head = parsePollHead(this.buffered.toString('latin1', 0, end));
        const params = head && plainPollParams(head.target);
        if (!head || !params) return this.handOff();
        const request = this.buffered.subarray(0, end + HEAD_END.length);
        this.buffered = this.buffered.subarray(end + HEAD_END.length);
        this.busy = true;
        this.socket.setTimeout(0);
        this.owner.polls.handle(head.authorization, head.host, params, this.reply(), () => {
          // Handed on before anything was written: the HTTP server reads this request again.
          this.buffered = Buffer.concat([request, this.buffered]);
          this.busy = false;
          this.handOff();
        });
      }
    } finally {
      this.reading = false;
    }
  }

  private reply(): PollReply {
    return {
      send: (body) => {
        this.gone = null;
        this.busy = false;
        if (this.socket.destroyed) return;
        const closing = this.owner.closing;
        this.socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n' +
            `Content-Length: ${Buffer.byteLength(body)}\r\nDate: ${httpDate()}\r\n` +
            (closing ? 'Connection: close\r\n\r\n' : `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(this.owner.keepAliveMs() / 1000)}\r\n\r\n`) +
            body,
        );
        if (closing) {
          this.socket.end();
          return;
        }
        this.idle();
        this.readRequests();
      },
      onGone: (listener) => {
        // The client may have left while its credentials were being checked.
        if (this.socket.destroyed) listener();
        else this.gone = listener;
      },
    };
  }

  /** Gives the connection, and every byte not yet answered, to the HTTP server. */
  private handOff(): void {
    if (this.released) return;
    this.released = true;
    const { socket } = this;
    this.owner.forget(this);
    // A client that left while its credentials were being checked leaves nothing to hand on.
    if (socket.destroyed) return;
    socket.off('data', this.onData);
    socket.off('close', this.onClose);
    socket.off('error', this.onError);
    socket.off('timeout', this.onTimeout);
    socket.off('end', this.onError);
    socket.setTimeout(0);
    socket.pause();
    if (this.buffered.length > 0) socket.unshift(this.buffered);
    this.buffered = EMPTY;
    this.owner.toHttp(socket);
    process.nextTick(() => socket.resume());
  }
}

/** The raw poll connections of one HTTP server. */
class RawPolls {
  private readonly connections = new Set<RawConnection>();
  closing = false;

  constructor(
    readonly polls: PollServer,
    private readonly server: Server,
    readonly toHttp: (socket: Socket) => void,
  ) {}

  accept(socket: Socket): void {
    if (this.closing) return this.toHttp(socket);
    this.connections.add(new RawConnection(socket, this));
  }

  forget(connection: RawConnection): void {
    this.connections.delete(connection);
  }

  keepAliveMs(): number {
    return this.server.keepAliveTimeout;
  }

  close(all: boolean): void {
    this.closing = true;
    for (const connection of this.connections) connection.close(all);
  }
}

/**
 * Makes `server` read each new connection here first (see above). When the server closes its
 * idle connections (as it does on close), idle raw ones end too, and the others after the answer
 * they are owed; closeAllConnections ends them all.
 */
export function serveRawPolls(server: Server, polls: PollServer): void {
  const httpListeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const raw = new RawPolls(polls, server, (socket) => {
    for (const listener of httpListeners) listener.call(server, socket);
  });
  server.on('connection', (socket: Socket) => raw.accept(socket));
  for (const method of ['closeIdleConnections', 'closeAllConnections'] as const) {
    const original = server[method].bind(server);
    server[method] = () => {
      original();
      raw.close(method === 'closeAllConnections');
    };
  }
}
