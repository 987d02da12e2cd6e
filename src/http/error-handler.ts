// Renders every failure as {result: "error", msg, code, ...}: our ApiErrors as they are,
// Fastify's own request errors as 4xx, a store that is away, full or busy (or a file that cannot
// be written for lack of disk space) as 503 with Retry-After, and anything unexpected as a logged 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { classifyStoreError } from '../db/store-errors.js';
import { ApiError, DatabaseUnavailableError, DiskFullError, InvalidJsonError, NotFoundError } from '../errors.js';

function send(reply: FastifyReply, error: ApiError) {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.status(error.status).send(error.body());
}

export function toApiError(error: FastifyError | Error): ApiError | null {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError;
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return new InvalidJsonError();
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(error.message, { status });
  }
  return null;
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError) return send(reply, apiError);
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      request.log.warn({ err: error }, 'a file could not be written for lack of disk space');
      return send(reply, new DiskFullError());
    }
    const outage = classifyStoreError(error);
    if (outage) {
      request.log.warn({ err: error }, 'the database failed the request');
      return send(reply, new DatabaseUnavailableError(outage));
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
  });
  app.setNotFoundHandler((_request, reply) => send(reply, new NotFoundError()));
}

export { send as sendApiError };
