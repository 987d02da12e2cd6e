// Reading a plain poll's request head, strictly: anything Node's HTTP server might read
// differently, refuse, or answer in some other way is left to it (see raw-polls.ts).

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EDGE_SPACE = /^[ \t]+|[ \t]+$/g;
/** Control characters Node's parser refuses in a header line (tab is allowed in values). */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
/** Headers that give a GET a body, switch protocols or ask for anything but the plain exchange. */
const UNUSUAL = new Set(['content-length', 'transfer-encoding', 'expect', 'upgrade', 'te', 'trailer', 'proxy-connection']);

export interface PollHead {
  target: string;
  authorization: string;
  host: string;
}

/** The target of a plain poll's request line, or null for any other line. */
function pollTarget(requestLine: string): string | null {
  if (!requestLine.startsWith('GET ') || !requestLine.endsWith(' HTTP/1.1')) return null;
  const target = requestLine.slice(4, -9);
  // Visible ASCII only: no spaces, controls or bytes Node would refuse.
  return /^[\x21-\x7e]+$/.test(target) ? target : null;
}

/** A plain poll's request head (without its final blank line), or null for anything else. */
export function parsePollHead(head: string): PollHead | null {
  const lines = head.split('\r\n');
  const target = pollTarget(lines[0]!);
  if (target === null) return null;
  let authorization: string | undefined;
  let host: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0 || CONTROL.test(line)) return null;
    const name = line.slice(0, colon).toLowerCase();
    if (!TOKEN.test(name)) return null;
    const value = line.slice(colon + 1).replace(EDGE_SPACE, '');
    switch (name) {
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
        if (UNUSUAL.has(name)) return null;
    }
  }
  // Node's HTTP server refuses HTTP/1.1 requests without a Host header; it shall answer those.
  return authorization === undefined || host === undefined ? null : { target, authorization, host };
}

/**
 * parsePollHead for the heads of one connection. A client sends the same header lines with every
 * poll, so when they are exactly the last accepted head's, only the request line is read again.
 */
export class PollHeadReader {
  private headerLines = '';
  private last: PollHead | null = null;

  read(head: string): PollHead | null {
    const lineEnd = head.indexOf('\r\n');
    if (this.last !== null && lineEnd > 0 && head.length - lineEnd === this.headerLines.length && head.endsWith(this.headerLines)) {
      const target = pollTarget(head.slice(0, lineEnd));
      return target === null ? null : { ...this.last, target };
    }
    const parsed = parsePollHead(head);
    if (parsed !== null) {
      this.headerLines = head.slice(lineEnd);
      this.last = parsed;
    }
    return parsed;
  }
}

let dateSecond = -1;
let dateText = '';
/** The Date header's value, made once a second. */
export function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}
