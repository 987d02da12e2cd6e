// Long-poll connections served straight from the socket. A client keeps one connection for its
// event polls and repeats the same small GET on it all day; Node's HTTP machinery (request and
// response objects, header handling, events) costs more per poll than everything else the server
// does for it. Each new connection is read here first. While it carries plain polls (GET
// /api/v1/events with only queue_id, last_event_id and dont_block, credentials, and no body), they
// are answered here. At the first request that is anything else, or anything unusual, the
// connection is handed to Node's HTTP server with every byte not yet answered, at a request
// boundary, and stays there. A request is handed on whole or answered whole, so both parsers always
// agree on where requests begin and end. Node's limits are kept: head size, the time a head may
// take to arrive, keep-alive, and reading no further while answers are not being taken.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { type PollReply, type PollServer, plainPollParams } from './event-poll.js';
import { httpDate, PollHeadReader } from './poll-head.js';

/** Node's default limit on a request head. */
const MAX_HEAD_BYTES = 16 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
/** Node waits this much longer than the keep-alive time it announces, so clients never race it. */
const KEEP_ALIVE_MARGIN_MS = 1000;
const REQUEST_TIMEOUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

const POLL_START = Buffer.from('GET /api/v1/events?');
const CR = 13;
const LF = 10;

/** Whether the start of a head may still become a plain poll's: the poll's first bytes, and only CRLF line breaks. */
function couldBePoll(head: Buffer): boolean {
  const n = Math.min(head.length, POLL_START.length);
  if (head.compare(POLL_START, 0, n, 0, n) !== 0) return false;
  for (let i = head.indexOf(LF); i >= 0; i = head.indexOf(LF, i + 1)) if (head[i - 1] !== CR) return false;
  for (let i = head.indexOf(CR); i >= 0 && i < head.length - 1; i = head.indexOf(CR, i + 1)) if (head[i + 1] !== LF) return false;
  return true;
}

class RawConnection {
  private buffered: Buffer = EMPTY;
  private readonly heads = new PollHeadReader();
  /** A poll is being answered (its credentials checked, or waiting for events). */
  private busy = false;
  private reading = false;
  private gone: (() => void) | null = null;
  /** Handed to the HTTP server, or finished: nothing more is read here. */
  private released = false;
  /** Runs while part of a head has arrived, as Node's headersTimeout does. */
  private headTimer: NodeJS.Timeout | null = null;
  /** Reading stopped until the client takes the answers already written. */
  private awaitingDrain = false;
  /** One poll at a time is answered on a connection, so one reply serves them all. */
  private readonly reply: PollReply = {
    send: (body) => this.send(body),
    close: () => {
      this.released = true;
      this.socket.destroy();
    },
    onGone: (listener) => {
      // The client may have left while its credentials were being checked.
      if (this.socket.destroyed) listener();
      else this.gone = listener;
    },
  };

  constructor(
    private readonly socket: Socket,
    private readonly owner: RawPolls,
  ) {
    socket.setNoDelay(true);
    socket.on('data', this.onData);
    socket.on('close', this.onClose);
    socket.on('error', this.onError);
    socket.on('timeout', this.onError);
    socket.on('end', this.onEnd);
    this.idle();
  }

  /** Ends the connection now if nothing is owed or under way on it (or `always`); otherwise after its answer. */
  close(always: boolean): void {
    if (always || (!this.busy && this.buffered.length === 0)) this.socket.destroy();
  }

  private readonly onData = (chunk: Buffer): void => {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    // Requests sent behind a waiting poll are read after its answer (Node would read them at once
    // and queue their answers; clients do not pipeline behind long polls). Past a head's worth,
    // the socket is not read at all until then.
    if (this.busy) {
      if (this.buffered.length > MAX_HEAD_BYTES) this.socket.pause();
      return;
    }
    this.readRequests();
  };

  private readonly onClose = (): void => {
    this.clearHeadTimer();
    this.owner.forget(this);
    this.dropWaitingPoll();
  };

  private readonly onError = (): void => void this.socket.destroy();

  /** The client has stopped sending: a waiting poll is dropped, what was written still goes out. */
  private readonly onEnd = (): void => {
    this.released = true;
    this.dropWaitingPoll();
    this.socket.end();
  };

  private readonly onDrain = (): void => {
    this.awaitingDrain = false;
    this.socket.resume();
    this.readRequests();
  };

  private readonly onHeadTimeout = (): void => {
    this.headTimer = null;
    this.released = true;
    this.socket.end(REQUEST_TIMEOUT);
    this.socket.destroySoon();
  };

  private dropWaitingPoll(): void {
    const gone = this.gone;
    this.gone = null;
    gone?.();
  }

  /** Between requests the connection may idle as long as the HTTP server's keep-alive allows. */
  private idle(): void {
    this.socket.setTimeout(this.owner.keepAliveMs() + KEEP_ALIVE_MARGIN_MS);
  }

  private clearHeadTimer(): void {
    if (this.headTimer) clearTimeout(this.headTimer);
    this.headTimer = null;
  }

  private readRequests(): void {
    if (this.reading) return;
    this.reading = true;
    try {
      while (!this.busy && !this.released) {
        // Answers the client is not taking: read on once they are.
        if (this.socket.writableNeedDrain) {
          if (!this.awaitingDrain) {
            this.awaitingDrain = true;
            this.socket.pause();
            this.socket.once('drain', this.onDrain);
          }
          return;
        }
        const end = this.buffered.indexOf(HEAD_END);
        // Node refuses heads past its limit; so it is Node that answers them.
        if (end > MAX_HEAD_BYTES || (end < 0 && this.buffered.length > MAX_HEAD_BYTES)) return this.handOff();
        if (end < 0) {
          if (this.buffered.length === 0) return;
          // A head that cannot be a plain poll's goes to Node at once, so its limits and its
          // refusals (a bare LF, say, answered 400) apply as soon as they would without this path.
          if (!couldBePoll(this.buffered)) return this.handOff();
          this.headTimer ??= setTimeout(this.onHeadTimeout, this.owner.headersTimeoutMs());
          return;
        }
        this.clearHeadTimer();
        const head = this.heads.read(this.buffered.toString('latin1', 0, end));
        const params = head && plainPollParams(head.target);
        if (!head || !params) return this.handOff();
        const request = this.buffered.subarray(0, end + HEAD_END.length);
        this.buffered = this.buffered.subarray(end + HEAD_END.length);
        this.busy = true;
        this.socket.setTimeout(0);
        this.owner.polls.handle(head.authorization, head.host, params, this.reply, () => {
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

  private send(body: string): void {
    this.gone = null;
    this.busy = false;
    if (this.socket.destroyed || !this.socket.writable) return;
    const closing = this.owner.closing;
    this.socket.write(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nDate: ${httpDate()}\r\n` +
        (closing ? 'Connection: close\r\n\r\n' : `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(this.owner.keepAliveMs() / 1000)}\r\n\r\n`) +
        body,
    );
    if (closing) {
      this.released = true;
      this.socket.destroySoon();
      return;
    }
    this.idle();
    if (this.socket.isPaused() && !this.awaitingDrain) this.socket.resume();
    // Pipelined requests are read after this delivery, not inside it.
    if (this.buffered.length > 0) setImmediate(() => this.readRequests());
  }

  /** Gives the connection, and every byte not yet answered, to the HTTP server. */
  private handOff(): void {
    if (this.released) return;
    this.released = true;
    const { socket } = this;
    this.clearHeadTimer();
    this.owner.forget(this);
    // A client that left while its credentials were being checked leaves nothing to hand on.
    if (socket.destroyed) return;
    socket.off('data', this.onData);
    socket.off('close', this.onClose);
    socket.off('error', this.onError);
    socket.off('timeout', this.onError);
    socket.off('end', this.onEnd);
    socket.off('drain', this.onDrain);
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
  /** Set when the server closes its idle connections, which it does only as it shuts down. */
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

  headersTimeoutMs(): number {
    return this.server.headersTimeout;
  }

  close(all: boolean): void {
    this.closing = true;
    for (const connection of this.connections) connection.close(all);
  }
}

/**
 * Makes `server` read each new connection here first (see above). When the server closes its
 * idle connections (as it does on close), idle raw ones end too, and the others after the answer
 * they are owed; closeAllConnections ends them all. Polls answered here reach none of the
 * server's request listeners, logs or per-request limits.
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
