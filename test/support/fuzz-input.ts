// Malformed and random request input for the route fuzz test (test/endpoints/fuzz.test.ts):
// a seeded generator, the values it draws from, and the four ways of putting them on the wire.
import { API_PREFIX } from '../../src/app.js';
import type { Endpoint } from '../../src/http/endpoint.js';
import { multipartBody } from './multipart.js';

/** A value as sent on the wire: text, or bytes already percent-encoded (invalid UTF-8 and the like). */
export type Wire = string | { raw: string };
export type Encoding = 'query' | 'form' | 'multipart' | 'json';
export const ENCODINGS: Encoding[] = ['query', 'form', 'multipart', 'json'];

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const deepArray = '['.repeat(3000) + ']'.repeat(3000);
const deepObject = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000);

export const NASTY: Wire[] = [
  '', ' ', '0', '-1', '1', '-0', '1.5', '1e3', '1e400', '-1e400', '2147483648', '-2147483649',
  '9007199254740993', '99999999999999999999999999', '-99999999999999999999999999', 'NaN', 'Infinity', '0x10',
  'true', 'false', 'null', 'undefined', '"text"', '""', '[]', '{}', '[1,2,3]', '[-1]', '[0.5]', '[null]', '[[]]',
  '[{}]', '["general"]', '[["stream","general"]]', '[{"operator":"stream","operand":"general"}]',
  '[{"operator":"stream"}]', '[{"operator":5,"operand":{}}]', '{"a":{"b":[]}}', '[1e400]', '["\\u0000"]',
  '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}', deepArray, deepObject,
  '{', '[1,', '"unterminated', "'single'", '{"a":1,}',
  'general', 'newest', 'oldest', 'first_unread', 'stream', 'private', 'direct', 'add', 'remove', 'read',
  'starred', 'change_all', 'mark@confab.test', 'MONA@CONFAB.TEST', 'nobody@nowhere.test', '@', 'a@b',
  'a\u0000b', '\u0000', 'ünïcødé', '😀👍🏽', '\u202eevil', '\ufeffbom', '\ud800', 'x'.repeat(70_000), '9'.repeat(400),
  '<script>alert(1)</script>', '../../etc/passwd', "' OR 1=1 --", '\\', '\n', '\r\n', ' general ', '%', '%zz',
  { raw: '%FF%FE' }, { raw: '%ED%A0%80' }, { raw: '%C0%80' },
];

export const PATH_SEGMENTS: string[] = [
  '0', '-1', '1', '2', '3', '1.5', 'abc', 'me', '2147483648', '999999999999999', '99999999999999999999', '9007199254740993', '1e5', ' 1', '0x1',
  '%00', '%2F', '%F0%9F%98%80', '%FF', 'mark%40confab.test', 'x'.repeat(400),
];

export const BROKEN_JSON_BODIES = ['{', '[1,', '{"a":}', 'nul', '"\u0000', '{"a":1}}', deepArray, '\ud800', ''];

export const ODD_BODIES: Array<{ contentType: string | undefined; payload: string | Buffer }> = [
  { contentType: 'text/plain', payload: 'content=hello' },
  { contentType: 'application/octet-stream', payload: Buffer.from([0, 255, 1, 254]) },
  { contentType: 'multipart/form-data', payload: 'no boundary here' },
  { contentType: 'multipart/form-data; boundary=abc', payload: '--abc\r\nContent-Disposition: form-data; name="x"\r\n\r\nunterminated' },
  { contentType: 'application/x-www-form-urlencoded; charset=latin1', payload: 'a=%E9&b=%FF' },
  { contentType: 'application/x-www-form-urlencoded', payload: '&&==&a&=b&%&a=1&a=2' },
  { contentType: undefined, payload: 'stream=general' },
  // Valid JSON nested deeper than a recursive JSON.stringify can follow.
  { contentType: 'application/json', payload: `{"unknown":${'['.repeat(20_000)}${']'.repeat(20_000)}}` },
];

export function percentEncode(value: Wire): string {
  if (typeof value !== 'string') return value.raw;
  return [...Buffer.from(value, 'utf8')]
    .map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

function wireBytes(value: Wire): Buffer {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  return Buffer.from(value.raw.replace(/%([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
}

function wireText(value: Wire): string {
  return typeof value === 'string' ? value : wireBytes(value).toString('utf8');
}

export interface FuzzRequest {
  method: Endpoint['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export function describeRequest(req: FuzzRequest): string {
  const body = req.payload === undefined ? '' : ` body(${req.headers['content-type'] ?? 'none'}) ${preview(req.payload.toString())}`;
  return `${req.method} ${preview(req.url)}${body}`;
}

export function preview(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}... (${text.length} chars)` : text);
}

/** The segments of a route URL such as /users/:user_id(^\d+$)/reactivate: literal or a named parameter. */
export function pathSegments(url: string): Array<{ literal: string } | { param: string }> {
  return url
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const match = /^:([A-Za-z0-9_]+)/.exec(segment);
      return match ? { param: match[1]! } : { literal: segment };
    });
}

export class Fuzzer {
  readonly random: () => number;
  constructor(
    seed: number,
    private readonly plausible: (name: string) => Wire[],
  ) {
    this.random = mulberry32(seed);
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)]!;
  }

  randomString(): string {
    const length = Math.floor(this.random() ** 3 * 300);
    let out = '';
    for (let i = 0; i < length; i++) {
      const roll = this.random();
      const code = roll < 0.6 ? 32 + Math.floor(this.random() * 95) : roll < 0.75 ? Math.floor(this.random() * 32) : Math.floor(this.random() * 0xffff);
      out += String.fromCharCode(code);
    }
    return out;
  }

  randomJson(depth = 0): unknown {
    const roll = this.random();
    if (depth > 3 || roll < 0.3) return this.pick([0, -1, 1.5, 2 ** 53 + 1, -(2 ** 31), 1e308, true, false, null, 'general', this.randomString()]);
    if (roll < 0.65) return Array.from({ length: Math.floor(this.random() * 4) }, () => this.randomJson(depth + 1));
    const keys = ['operator', 'operand', 'negated', 'name', 'id', 'type', 'to', 'topic', 'content', this.randomString()];
    return Object.fromEntries(Array.from({ length: Math.floor(this.random() * 4) }, () => [this.pick(keys), this.randomJson(depth + 1)]));
  }

  value(name: string): Wire {
    const roll = this.random();
    if (roll < 0.45) return this.pick(NASTY);
    if (roll < 0.6) return JSON.stringify(this.randomJson());
    if (roll < 0.7) return this.randomString();
    return this.pick(this.plausible(name));
  }

  pathValue(name: string): string {
    if (this.random() < 0.5) return this.pick(PATH_SEGMENTS);
    return percentEncode(this.pick(this.plausible(name)));
  }
}

export function buildRequest(
  route: Endpoint,
  pathValues: Record<string, string>,
  params: Array<[string, Wire]>,
  encoding: Encoding,
  authorization: string,
  asJsonValues = false,
): FuzzRequest {
  const path = pathSegments(route.url)
    .map((segment) => ('literal' in segment ? segment.literal : (pathValues[segment.param] ?? '1')))
    .join('/');
  const url = `${API_PREFIX}/${path}`;
  const headers: Record<string, string> = { authorization };
  const encoded = params.map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`).join('&');
  switch (encoding) {
    case 'query':
      return { method: route.method, url: encoded ? `${url}?${encoded}` : url, headers };
    case 'form':
      headers['content-type'] = 'application/x-www-form-urlencoded';
      return { method: route.method, url, headers, payload: encoded };
    case 'multipart': {
      const body = multipartBody(params.map(([name, value]) => ({ name, value: wireBytes(value) })), 'fuzz-boundary-z9');
      headers['content-type'] = body.contentType;
      return { method: route.method, url, headers, payload: body.payload };
    }
    case 'json': {
      headers['content-type'] = 'application/json';
      const object: Record<string, unknown> = {};
      for (const [name, value] of params) {
        const text = wireText(value);
        let parsed: unknown = text;
        if (asJsonValues) {
          try {
            parsed = JSON.parse(text);
          } catch {
            // Not JSON: sent as a string.
          }
        }
        object[name] = parsed;
      }
      return { method: route.method, url, headers, payload: JSON.stringify(object) };
    }
  }
}

/** The first `keep` cases (requests without parameters) and a seeded choice among the rest. */
export function sample<T>(cases: T[], size: number, fuzz: Fuzzer, keep = ENCODINGS.length): T[] {
  if (cases.length <= size) return cases;
  const rest = cases.slice(keep);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(fuzz.random() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return [...cases.slice(0, keep), ...rest.slice(0, Math.max(0, size - keep))];
}

export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
