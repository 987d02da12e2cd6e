// How request bodies become parameters: form, JSON and multipart bodies (multipart.ts), each held
// to MAX_BODY_BYTES and to MAX_BODY_FIELDS parameters, so that no body costs more to take apart
// than its size allows. Bodies of other types carry no parameters: they are read and dropped.
import formbody from '@fastify/formbody';
import { parse as parseQueryString } from 'fast-querystring';
import type { FastifyInstance } from 'fastify';
import { MAX_BODY_FIELDS, tooManyFields } from '../lib/limits.js';
import type { Services } from '../services.js';
import { registerMultipart } from './multipart.js';

/** Counts the non-empty `name=value` pieces of a form, up to one past the limit, before any is decoded. */
function formFieldsOverLimit(text: string): boolean {
  let count = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start && ++count > MAX_BODY_FIELDS) return true;
    start = end + 1;
  }
  return false;
}

function parseForm(text: string): Record<string, unknown> {
  if (formFieldsOverLimit(text)) throw tooManyFields();
  return parseQueryString(text);
}

function objectKeysOverLimit(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key) && ++count > MAX_BODY_FIELDS) return true;
  return false;
}

export async function registerBodyParsers(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(formbody, { parser: parseForm });
  // Fastify's own JSON parser (and its errors); the parameters of an object are counted after it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text: string | Buffer, done) => {
    parseJson(req, text as string, (error, value) => {
      if (error) return done(error, undefined);
      if (objectKeysOverLimit(value)) return done(tooManyFields(), undefined);
      done(null, value);
    });
  });
  registerMultipart(app, services);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));
}
