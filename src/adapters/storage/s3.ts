// S3-compatible object storage through a small hand-written client: path-style requests signed
// with AWS Signature Version 4, bodies streamed both ways. Enough for PUT, GET (with ranges), HEAD
// and DELETE of single objects, which is all the storage interface needs.
import { createHash, createHmac } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { type ByteRange, checkKey, type FileStorage, type SpooledFile, type StoredObject } from './types.js';

export interface S3Options {
  bucket: string;
  /** Base URL of the service, e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000. */
  endpoint: string;
  region: string;
  /** Prepended to every key (no leading or trailing '/'). */
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Local folder for uploads being received. */
  spoolDir?: string;
}

const EMPTY_SHA256 = createHash('sha256').digest('hex');

/** s3://bucket?endpoint=...&region=...&prefix=..., credentials from the AWS_* variables. */
export function s3OptionsFromUrl(url: string, env: NodeJS.ProcessEnv = process.env): S3Options {
  const parsed = new URL(url);
  if (parsed.protocol !== 's3:' || !parsed.hostname) throw new Error(`A storage URL is s3://BUCKET?endpoint=..., not '${url}'`);
  const region = parsed.searchParams.get('region') ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw new Error('S3 storage needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment');
  return {
    bucket: parsed.hostname,
    endpoint: (parsed.searchParams.get('endpoint') ?? `https://s3.${region}.amazonaws.com`).replace(/\/$/, ''),
    region,
    prefix: (parsed.searchParams.get('prefix') ?? '').replace(/^\/+|\/+$/g, ''),
    accessKeyId,
    secretAccessKey,
    ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
  };
}

/** RFC 3986 encoding of one path segment, as SigV4 wants it. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

interface SignedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
}

/** Adds the SigV4 Authorization header (and x-amz-date, x-amz-content-sha256) to a request. */
export function signV4(req: SignedRequest, options: Pick<S3Options, 'region' | 'accessKeyId' | 'secretAccessKey' | 'sessionToken'>, payloadHash: string, now = new Date()): void {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  req.headers['x-amz-date'] = amzDate;
  req.headers['x-amz-content-sha256'] = payloadHash;
  if (options.sessionToken) req.headers['x-amz-security-token'] = options.sessionToken;
  req.headers.host = req.url.host;
  const names = Object.keys(req.headers).map((h) => h.toLowerCase()).filter((h) => h === 'host' || h.startsWith('x-amz-') || h === 'range' || h === 'content-type').sort();
  const lower = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const canonicalHeaders = names.map((h) => `${h}:${String(lower[h]).trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonical = [req.method, req.url.pathname, '', canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${options.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${options.secretAccessKey}`, day), options.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  req.headers.authorization = `AWS4-HMAC-SHA256 Credential=${options.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

async function drain(res: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of res) if (text.length < 2000) text += String(chunk);
  return text;
}

export class S3Storage implements FileStorage {
  readonly kind = 's3' as const;
  readonly spoolDir: string;

  constructor(private readonly options: S3Options) {
    this.spoolDir = options.spoolDir ?? join(tmpdir(), 'confab-uploads');
  }

  private urlOf(key: string): URL {
    const full = [this.options.prefix, checkKey(key)].filter(Boolean).join('/');
    return new URL(`${this.options.endpoint}/${encodeSegment(this.options.bucket)}/${full.split('/').map(encodeSegment).join('/')}`);
  }

  private send(method: string, key: string, headers: Record<string, string>, payloadHash: string, body?: Readable): Promise<IncomingMessage> {
    const req: SignedRequest = { method, url: this.urlOf(key), headers: { ...headers } };
    signV4(req, this.options, payloadHash);
    const send = req.url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const outgoing = send(req.url, { method, headers: req.headers }, resolve);
      outgoing.on('error', reject);
      if (body) {
        body.on('error', (error) => outgoing.destroy(error));
        body.pipe(outgoing);
      } else {
        outgoing.end();
      }
    });
  }

  private async failure(res: IncomingMessage, what: string): Promise<Error> {
    return new Error(`S3 ${what} failed with HTTP ${res.statusCode}: ${(await drain(res)).slice(0, 300)}`);
  }

  async putFile(key: string, file: SpooledFile, contentType: string): Promise<void> {
    try {
      const headers = { 'content-type': contentType, 'content-length': String(file.size) };
      const res = await this.send('PUT', key, headers, file.sha256, createReadStream(file.path));
      if (res.statusCode !== 200) throw await this.failure(res, 'PUT');
      await drain(res);
    } finally {
      await rm(file.path, { force: true });
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {};
    const res = await this.send('GET', key, headers, EMPTY_SHA256);
    if (res.statusCode === 404) {
      await drain(res);
      return null;
    }
    if (res.statusCode === 206) {
      const total = /\/(\d+)$/.exec(String(res.headers['content-range'] ?? ''));
      return { size: Number(total?.[1]), body: res };
    }
    if (res.statusCode !== 200) throw await this.failure(res, 'GET');
    return { size: Number(res.headers['content-length']), body: res };
  }

  async stat(key: string): Promise<number | null> {
    const res = await this.send('HEAD', key, {}, EMPTY_SHA256);
    await drain(res);
    if (res.statusCode === 404) return null;
    if (res.statusCode !== 200) throw new Error(`S3 HEAD failed with HTTP ${res.statusCode}`);
    return Number(res.headers['content-length']);
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key, {}, EMPTY_SHA256);
    if (res.statusCode !== 204 && res.statusCode !== 200 && res.statusCode !== 404) throw await this.failure(res, 'DELETE');
    await drain(res);
  }
}
