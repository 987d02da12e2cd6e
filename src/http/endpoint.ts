// The shape of one endpoint file, and the wrapper that turns it into a Fastify handler:
// authenticate, parse parameters by Zulip's conventions, call the handler, reply.
import type { FastifyReply, FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import type { RealmRow, UserRow } from '../db/schema.js';
import { getRealmForHost } from '../queries/realms.js';
import type { Services } from '../services.js';
import { collectRaw, type ParamShape, type ParamValues, parseParams } from './params.js';
import { rateLimiterFor, type UserBucket } from './rate-limit.js';
import { authenticateRequest } from './request-auth.js';
import { keepSessionAfterChange } from './session-auth.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Json = Record<string, unknown>;

export interface UserContext<P> {
  params: P;
  user: UserRow;
  realm: RealmRow;
  services: Services;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface PublicContext<P> extends Omit<UserContext<P>, 'user' | 'realm'> {
  realm: RealmRow | undefined;
}

/** How requests prove who sent them: API credentials (/api/v1) or the web client's session (/json). */
export type AuthMode = 'api' | 'session';

export interface Endpoint {
  method: Method;
  url: string;
  /** The declared parameters (read by tests that walk the route table). */
  readonly params: ParamShape;
  build(services: Services, mode?: AuthMode): RouteHandlerMethod;
  /** Extra Fastify route options (hooks, config), for the few routes that read their body themselves. */
  routeOptions?(services: Services, mode?: AuthMode): RouteShorthandOptions;
}

function reply(res: FastifyReply, body: Json, ignored: string[]) {
  if (res.sent) return res;
  const out: Json = { result: 'success', msg: '', ...body };
  if (ignored.length > 0) out.ignored_parameters_unsupported = ignored;
  return res.send(out);
}

function rawParams(req: FastifyRequest) {
  return collectRaw(req.query, req.body);
}

/** An endpoint that needs an authenticated user (the default for the API). */
export function endpoint<S extends ParamShape>(def: {
  method: Method;
  url: string;
  params: S;
  /** The per-user rate-limit count the endpoint's requests go to (event polls have their own). */
  rateLimit?: UserBucket;
  /**
   * The handler may change the requester's password or API key. Only such a change ends sessions
   * (see keepSessionAfterChange), so only these endpoints re-read the user after a session request.
   */
  changesCredentials?: boolean;
  /** Incoming-webhook bots may call this route (sending messages); every other route refuses them. */
  allowIncomingWebhooks?: boolean;
  handler(ctx: UserContext<ParamValues<S>>): Promise<Json> | Json;
}): Endpoint {
  const bucket = def.rateLimit ?? 'api';
  return {
    method: def.method,
    url: def.url,
    params: def.params,
    build: (services, mode = 'api') => {
      return async function handle(req, res) {
        const { user, realm, session } = await authenticateRequest(services, req, res, mode === 'session', bucket, def.allowIncomingWebhooks);
        const { values, ignored } = parseParams(def.params, rawParams(req), req.params as Record<string, string>);
        const body = await def.handler({ params: values, user, realm, services, req, reply: res });
        if (session && def.changesCredentials) await keepSessionAfterChange(services, { user, realm, session });
        return reply(res, body, ignored);
      };
    },
  };
}

/** An endpoint anyone may call (server settings, fetching an API key). */
export function publicEndpoint<S extends ParamShape>(def: {
  method: Method;
  url: string;
  params: S;
  handler(ctx: PublicContext<ParamValues<S>>): Promise<Json> | Json;
}): Endpoint {
  return {
    method: def.method,
    url: def.url,
    params: def.params,
    build: (services) => {
      const limiter = rateLimiterFor(services);
      return async function handle(req, res) {
        res.headers(await limiter.unauthenticated(req.ip));
        const realm = await getRealmForHost(services.db, req.headers.host);
        const { values, ignored } = parseParams(def.params, rawParams(req), req.params as Record<string, string>);
        const body = await def.handler({ params: values, realm, services, req, reply: res });
        return reply(res, body, ignored);
      };
    },
  };
}
