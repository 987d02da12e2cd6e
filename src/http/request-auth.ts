// Who a request comes from, for every authenticated route: API credentials (Basic auth), or under
// /json and for a browser's file requests the session cookie; then the user's rate-limit headers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserSessionRow } from '../db/schema.js';
import type { Services } from '../services.js';
import { authenticate, type Authenticated } from './auth.js';
import { rateLimiterFor, type UserBucket } from './rate-limit.js';
import { authenticateSession } from './session-auth.js';

export interface RequestAuthenticated extends Authenticated {
  /** The browser session the request came with; null for API credentials. */
  session: UserSessionRow | null;
}

export async function authenticateRequest(
  services: Services,
  req: FastifyRequest,
  reply: FastifyReply,
  bySession: boolean,
  bucket: UserBucket = 'api',
): Promise<RequestAuthenticated> {
  const limiter = rateLimiterFor(services);
  const authenticated = bySession
    ? await authenticateSession(services, req)
    : { ...(await limiter.authenticate(req.ip, () => authenticate(services, req.headers.authorization, req.headers.host))), session: null };
  reply.headers(await limiter.user(authenticated.user.id, bucket));
  return authenticated;
}
