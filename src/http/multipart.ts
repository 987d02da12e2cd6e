// Reading multipart/form-data bodies (zulip-js and browsers post forms so, and uploads always are).
// Fields become the request's parameters, as a form body's do. Only an upload route takes a file
// part, and only one (upload-receive.ts); anywhere else a file part is refused as soon as it
// starts, before the route authenticates anyone. The whole body is held to MAX_BODY_BYTES (plus
// the file's own limit on an upload route) and MAX_BODY_FIELDS fields, and refused the moment it
// passes them: nothing past a limit is read. Every malformed body is a 400 of its own.
import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { ApiError } from '../errors.js';
import { MAX_BODY_BYTES, MAX_BODY_FIELDS, tooManyFields } from '../lib/limits.js';
import type { Services } from '../services.js';
import { discardSpooled, receiveFile, type Upload, uploadOf } from './upload-receive.js';

/**
 * Characters of a boundary. RFC 2046 asks for at most 70 and the parser can search for no more
 * than 252; Django, behind the reference server, takes up to 201.
 */
const MAX_BOUNDARY_LENGTH = 200;

const invalid = (what: string) => new ApiError(`Invalid multipart body: ${what}`);
const multipartErrors = {
  noFiles: () => new ApiError('This endpoint does not accept file uploads'),
  truncated: () => invalid('it ends before its closing boundary'),
  noBoundary: () => invalid('its Content-Type names no boundary'),
  longBoundary: () => invalid(`its boundary is longer than ${MAX_BOUNDARY_LENGTH} characters`),
};

/** The 413 of a body past its limit: Fastify's own wording for form and JSON bodies. */
const bodyTooLarge = () => new ApiError('Request body is too large', { status: 413 });

type Fields = Record<string, string | string[]>;

export function registerMultipart(app: FastifyInstance, services: Services): void {
  app.addContentTypeParser('multipart/form-data', (req: FastifyRequest, payload: Readable) => readMultipart(services, req, payload));
}

function boundaryOf(contentType: string): string {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2] ?? '';
  if (boundary === '') throw multipartErrors.noBoundary();
  if (boundary.length > MAX_BOUNDARY_LENGTH) throw multipartErrors.longBoundary();
  return boundary;
}

function addField(fields: Fields, name: string, value: string): void {
  const previous = fields[name];
  if (previous === undefined) fields[name] = value;
  else if (Array.isArray(previous)) previous.push(value);
  else fields[name] = [previous, value];
}

function readMultipart(services: Services, req: FastifyRequest, payload: Readable): Promise<Fields> {
  const contentType = req.headers['content-type'] ?? '';
  boundaryOf(contentType);
  const upload = uploadOf(req);
  const limit = MAX_BODY_BYTES + (upload ? upload.rules.limitMib(services) * 1024 * 1024 : 0);
  // Past the limit before a byte is read: refuse without reading any.
  if (!upload && Number(req.headers['content-length']) > limit) throw bodyTooLarge();
  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { fieldSize: MAX_BODY_BYTES, fields: MAX_BODY_FIELDS, parts: MAX_BODY_FIELDS + 1 },
      // As Django decides: a part is a file when it names one.
      isPartAFile: (_name, _type, fileName) => fileName !== undefined,
    });
  } catch {
    throw multipartErrors.noBoundary();
  }
  return new Promise<Fields>((resolve, reject) => {
    const fields: Fields = Object.create(null);
    let received = 0;
    let fieldBytes = 0;
    let spooling: Promise<void> | null = null;
    let fileStream: BusboyFileStream | null = null;
    let settled = false;

    const stop = () => {
      settled = true;
      // Nothing more is read; the error listeners stay, so a connection that breaks later is no crash.
      payload.off('data', onData).off('end', onEnd);
      parser.off('drain', onDrain);
      payload.pause();
    };
    // The file being spooled is abandoned, and its spool file gone, before the error is answered.
    const fail = (error: unknown) => {
      if (settled) return;
      stop();
      fileStream?.destroy();
      const pending = spooling ?? Promise.resolve();
      void pending
        .catch(() => undefined)
        .then(() => upload && discardSpooled(upload))
        .catch(() => undefined)
        .then(() => reject(error));
    };
    const succeed = async () => {
      if (settled) return;
      try {
        if (spooling) await spooling;
      } catch (error) {
        return fail(error);
      }
      if (settled) return;
      stop();
      resolve(fields);
    };

    parser.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      fieldBytes += value.length;
      if (valueTruncated || fieldBytes > MAX_BODY_BYTES) return fail(bodyTooLarge());
      addField(fields, name, value);
    });
    parser.on('file', (_name: string, stream: BusboyFileStream, fileName: string, _encoding: string, mimeType: string) => {
      // The parser reports a part cut short on its stream even once the stream is abandoned.
      stream.on('error', () => undefined);
      if (!upload) return fail(multipartErrors.noFiles());
      if (spooling) return fail(new ApiError(upload.rules.oneFileError));
      fileStream = stream;
      spooling = receiveUpload(services, upload, stream, fileName, mimeType);
      spooling.catch(fail);
    });
    parser.on('fieldsLimit', () => fail(tooManyFields()));
    parser.on('partsLimit', () => fail(tooManyFields()));
    parser.on('error', () => fail(multipartErrors.truncated()));
    parser.on('finish', () => void succeed());

    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return fail(bodyTooLarge());
      if (!parser.write(chunk)) payload.pause();
    };
    const onDrain = () => payload.resume();
    // An empty body is an empty form, as it would be urlencoded.
    const onEnd = () => (received === 0 ? void succeed() : parser.end());
    const onBroken = () => fail(multipartErrors.truncated());
    const onClose = () => {
      if (!payload.readableEnded) onBroken();
    };
    payload.on('data', onData).on('end', onEnd).on('error', onBroken).on('close', onClose);
    parser.on('drain', onDrain);
  });
}

/** Spools the file, a part that ends early being a body that does. */
async function receiveUpload(services: Services, upload: Upload, stream: BusboyFileStream, fileName: string, mimeType: string): Promise<void> {
  try {
    await receiveFile(services, upload, stream, fileName, mimeType);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof Error && /terminated early|premature close/i.test(error.message)) throw multipartErrors.truncated();
    throw error;
  }
}
