// buildApp(services) -> a Fastify instance with every route; it never listens (server.ts does).
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ValidatorFactory } from '@fastify/ajv-compiler';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { ApiError, MethodNotAllowedError } from './errors.js';
import { serveEmojiData } from './http/emoji-data.js';
import { installErrorHandling, sendApiError, toApiError } from './http/error-handler.js';
import { PollServer, withEventPolls } from './http/event-poll.js';
import { registerHealthRoutes } from './http/health.js';
import { withQueueForwarding } from './cluster/forward.js';
import { registerMetrics } from './http/metrics.js';
import type { Method } from './http/endpoint.js';
import { trustProxyOption } from './http/rate-limit.js';
import { serveRawPolls } from './http/raw-polls.js';
import { registerJoinPages } from './http/join-page.js';
import { registerLoginPages } from './http/login-pages.js';
import { registerPasswordResetPages } from './http/password-reset-pages.js';
import { registerUploadRoutes } from './http/serve-uploads.js';
import { registerRealmImageRoutes } from './http/serve-realm-images.js';
import { registerAvatarRoutes } from './http/serve-avatars.js';
import { setGravatarEnabled } from './lib/user-format.js';
import { registerBodyParsers } from './http/body-parsers.js';
import { EMOJI_DATA_PATH } from './lib/emoji.js';
import { registerWebClient } from './http/web-client.js';
import { MAX_BODY_BYTES } from './lib/limits.js';
import { routes } from './routes.js';
import type { Services } from './services.js';

export const API_PREFIX = '/api/v1';
/** The same routes for the web client, authenticated by its session cookie and CSRF token. */
export const JSON_PREFIX = '/json';
/** How long an idle keep-alive connection stays open (Fastify's default). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** Node's defaults for how long a request's head, and the whole request, may take to arrive. */
const NODE_HEADERS_TIMEOUT_MS = 60_000;
const NODE_REQUEST_TIMEOUT_MS = 300_000;
const METHODS: Method[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/**
 * Fastify's schema compilers (ajv, fast-json-stringify: some 230 KB of code) loaded only if a
 * route ever declares a schema; none does today, so a start never loads them.
 */
function compilerOnDemand<F extends (...args: never[]) => unknown>(name: string): F {
  return ((...args: Parameters<F>) => (createRequire(import.meta.url)(name) as () => F)()(...args)) as F;
}

export async function buildApp(services: Services, options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  // A server-wide setting that avatar URLs everywhere follow (see src/lib/user-format.ts).
  setGravatarEnabled(services.config.enableGravatar);
  const app = Fastify({
    logger: false,
    // The client's address (for rate limits) comes from X-Forwarded-For only through named proxies.
    trustProxy: trustProxyOption(services.config),
    bodyLimit: MAX_BODY_BYTES,
    schemaController: {
      compilersFactory: {
        buildValidator: compilerOnDemand<ValidatorFactory>('@fastify/ajv-compiler'),
        buildSerializer: compilerOnDemand<SerializerFactory>('@fastify/fast-json-stringify-compiler'),
      },
    },
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
    // Requests Fastify refuses before routing (a badly encoded path, say) get the Zulip error shape too.
    frameworkErrors: (error, _req, reply) => sendApiError(reply, toApiError(error) ?? new ApiError(error.message)),
    // Event polls are answered before Fastify sees them (src/http/event-poll.ts), and on
    // connections that carry only polls, before Node's HTTP server does (src/http/raw-polls.ts).
    serverFactory: (handler, { requestTimeout }) => {
      const polls = new PollServer(services);
      // Node's limits on how long a request may take to arrive (a body sent a byte at a time
      // would otherwise hold its connection forever). They end when the request has arrived, so
      // a poll waiting for events is not cut short. Fastify turns requestTimeout off by default
      // (0); a test may set a shorter one.
      const timeout = Number(requestTimeout) || NODE_REQUEST_TIMEOUT_MS;
      const server = createServer(
        {
          requestTimeout: timeout,
          headersTimeout: Math.min(NODE_HEADERS_TIMEOUT_MS, timeout),
          // Node checks its limits every 30 s; shorter ones are checked more often.
          connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(timeout / 4))),
        },
        withQueueForwarding(services, withEventPolls(polls, handler)),
      );
      // Fastify's own default, which it does not apply to a server it is given.
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      serveRawPolls(server, polls);
      return server;
    },
    ...options,
  });
  installErrorHandling(app);
  await registerBodyParsers(app, services);

  registerHealthRoutes(app, services);
  await registerMetrics(app, services);

  // Static data the API points clients at (server_emoji_data_url); public, outside /api/v1.
  app.get(EMOJI_DATA_PATH, serveEmojiData);

  const methodsByUrl = new Map<string, Method[]>();
  for (const route of routes) {
    app.route({ ...route.routeOptions?.(services), method: route.method, url: API_PREFIX + route.url, handler: route.build(services) });
    app.route({
      ...route.routeOptions?.(services, 'session'),
      method: route.method,
      url: JSON_PREFIX + route.url,
      handler: route.build(services, 'session'),
    });
    methodsByUrl.set(route.url, [...(methodsByUrl.get(route.url) ?? []), route.method]);
  }
  registerUploadRoutes(app, services);
  registerRealmImageRoutes(app, services);
  registerAvatarRoutes(app, services);
  // A known path with an unsupported method answers 405 with the methods it does support.
  for (const [url, allowed] of methodsByUrl) {
    const others = METHODS.filter((m) => !allowed.includes(m));
    if (others.length === 0) continue;
    for (const prefix of [API_PREFIX, JSON_PREFIX]) {
      app.route({
        method: others,
        url: prefix + url,
        handler: (_req, reply) => sendApiError(reply, new MethodNotAllowedError(allowed)),
      });
    }
  }
  registerLoginPages(app, services);
  registerJoinPages(app, services);
  registerPasswordResetPages(app, services);
  registerWebClient(app, services);
  return app;
}
