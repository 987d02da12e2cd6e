// Counts what crosses one PostgreSQL connection, from the wire protocol (version 3): statements
// by kind, transactions, and rows by command (from the servers' CommandComplete tags). It reads
// only message frames and the few messages it needs, so it can sit in a proxy under load; unlike
// the server's statistics views, its counts are exact at any moment.

export interface WireCounts {
  /** Statements run (Execute, or a simple Query), transaction control left out. */
  statements: number;
  /** BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE: round trips that are not statements of their own. */
  control: number;
  /** Transactions ended: explicit ones (BEGIN ... COMMIT or ROLLBACK) and statements run outside any. */
  transactions: number;
  /** Statements by their first word (select, insert, update, delete, with, ...). */
  byKind: Record<string, number>;
  /** Rows by command, from CommandComplete tags (INSERT 0 51, UPDATE 1, SELECT 20, ...). */
  rows: Record<string, number>;
  bytesToServer: number;
  bytesFromServer: number;
}

export function emptyCounts(): WireCounts {
  return { statements: 0, control: 0, transactions: 0, byKind: {}, rows: {}, bytesToServer: 0, bytesFromServer: 0 };
}

export function addCounts(into: WireCounts, from: WireCounts): void {
  into.statements += from.statements;
  into.control += from.control;
  into.transactions += from.transactions;
  into.bytesToServer += from.bytesToServer;
  into.bytesFromServer += from.bytesFromServer;
  for (const [kind, n] of Object.entries(from.byKind)) into.byKind[kind] = (into.byKind[kind] ?? 0) + n;
  for (const [kind, n] of Object.entries(from.rows)) into.rows[kind] = (into.rows[kind] ?? 0) + n;
}

/** `after` minus `before`, for a stretch between two readings. */
export function countsSince(before: WireCounts, after: WireCounts): WireCounts {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.entries(a).map(([k, n]) => [k, n - (b[k] ?? 0)]).filter(([, n]) => (n as number) !== 0));
  return {
    statements: after.statements - before.statements,
    control: after.control - before.control,
    transactions: after.transactions - before.transactions,
    byKind: minus(after.byKind, before.byKind),
    rows: minus(after.rows, before.rows),
    bytesToServer: after.bytesToServer - before.bytesToServer,
    bytesFromServer: after.bytesFromServer - before.bytesFromServer,
  };
}

const CONTROL = new Set(['begin', 'start', 'commit', 'end', 'rollback', 'abort', 'savepoint', 'release']);
const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

/** The first word of a statement, lower-cased. */
export function statementKind(sql: string): string {
  return /^[\s(]*([A-Za-z]+)/.exec(sql)?.[1]?.toLowerCase() ?? 'other';
}

/**
 * Splits one direction of a connection into messages: a type byte and a length (which counts
 * itself), after an untyped start. Only messages of the wanted types are gathered whole; the
 * others are skipped as their bytes go by.
 */
class Frames {
  private pending: Buffer = Buffer.alloc(0);
  private skip = 0;

  constructor(
    private readonly wanted: ReadonlySet<number>,
    private readonly onMessage: (type: number, body: Buffer | null) => void,
    /** Untyped messages still to come first (the client's start-up, the server's answer to an SSL request). */
    public untyped: 'message' | 'byte' | null,
  ) {}

  push(chunk: Buffer): void {
    let data = chunk;
    if (this.skip > 0) {
      const skipped = Math.min(this.skip, data.length);
      this.skip -= skipped;
      data = data.subarray(skipped);
    }
    if (this.pending.length > 0) data = Buffer.concat([this.pending, data]);
    let at = 0;
    for (;;) {
      if (this.untyped === 'byte') {
        if (at >= data.length) break;
        at += 1;
        this.untyped = null;
        continue;
      }
      const headerLength = this.untyped === 'message' ? 4 : 5;
      if (data.length - at < headerLength) break;
      const type = this.untyped === 'message' ? 0 : data[at]!;
      const length = data.readInt32BE(this.untyped === 'message' ? at : at + 1);
      const total = (this.untyped === 'message' ? 0 : 1) + length;
      const available = data.length - at;
      if (this.untyped === 'message' || this.wanted.has(type)) {
        if (available < total) break;
        this.onMessage(type, data.subarray(at + headerLength, at + total));
        at += total;
        continue;
      }
      if (available < total) {
        this.onMessage(type, null);
        this.skip = total - available;
        at = data.length;
        break;
      }
      this.onMessage(type, null);
      at += total;
    }
    this.pending = at >= data.length ? Buffer.alloc(0) : Buffer.from(data.subarray(at));
  }
}

const Q = 0x51, P = 0x50, E = 0x45, C = 0x43, Z = 0x5a;

/** The counts of one client connection: feed it each direction's bytes in order. */
export class WireCounter {
  readonly counts = emptyCounts();
  /** The last unnamed statement parsed: what an Execute runs (the Node driver names none). */
  private parsed = '';
  private state = 'I';
  /** Statements run since the server last said it was ready. */
  private sinceReady = 0;
  private readonly client: Frames;
  private readonly server: Frames;

  constructor() {
    this.client = new Frames(new Set([Q, P]), (type, body) => this.fromClient(type, body), 'message');
    this.server = new Frames(new Set([C, Z]), (type, body) => this.fromServer(type, body), null);
  }

  clientBytes(chunk: Buffer): void {
    this.counts.bytesToServer += chunk.length;
    this.client.push(chunk);
  }

  serverBytes(chunk: Buffer): void {
    this.counts.bytesFromServer += chunk.length;
    this.server.push(chunk);
  }

  private run(sql: string): void {
    const kind = statementKind(sql);
    if (CONTROL.has(kind)) {
      this.counts.control++;
      return;
    }
    this.counts.statements++;
    this.counts.byKind[kind] = (this.counts.byKind[kind] ?? 0) + 1;
    this.sinceReady++;
  }

  private fromClient(type: number, body: Buffer | null): void {
    if (type === 0) {
      // Start-up; an SSL or GSS request is answered with one byte, then the real start-up follows.
      const code = body!.readInt32BE(0);
      if (code === SSL_REQUEST || code === GSS_REQUEST) {
        this.client.untyped = 'message';
        this.server.untyped = 'byte';
      } else {
        this.client.untyped = null;
      }
      return;
    }
    if (type === Q) this.run(body!.toString('utf8', 0, body!.length - 1));
    else if (type === P) {
      // Parse: a statement name, then the text, each ending with a zero byte.
      const nameEnd = body!.indexOf(0);
      this.parsed = body!.toString('utf8', nameEnd + 1, body!.indexOf(0, nameEnd + 1));
    } else if (type === E) this.run(this.parsed);
  }

  private fromServer(type: number, body: Buffer | null): void {
    if (type === C) {
      const tag = body!.toString('latin1', 0, body!.length - 1).split(' ');
      const rows = Number(tag.at(-1));
      if (Number.isFinite(rows) && tag.length > 1) this.counts.rows[tag[0]!.toLowerCase()] = (this.counts.rows[tag[0]!.toLowerCase()] ?? 0) + rows;
    } else if (type === Z) {
      const status = String.fromCharCode(body![0]!);
      if (status === 'I' && (this.state !== 'I' || this.sinceReady > 0)) this.counts.transactions++;
      this.state = status;
      this.sinceReady = 0;
    }
  }
}
