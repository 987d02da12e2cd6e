// Who a request comes from, for every authenticated route: API credentials (Basic auth), or under
// /json and for a browser's file requests the session cookie; then the user's rate-limit headers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow, UserSessionRow } from '../db/schema.js';
import { UnauthorizedError } from '../errors.js';
import { BotType } from '../lib/roles.js';
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
  allowIncomingWebhooks = false,
): Promise<RequestAuthenticated> {
  const limiter = rateLimiterFor(services);
  const authenticated = bySession
    ? await authenticateSession(services, req)
    : { ...(await limiter.authenticate(req.ip, () => authenticate(services, req.headers.authorization, req.headers.host))), session: null };
  if (!allowIncomingWebhooks) refuseIncomingWebhookBot(authenticated.user);
  reply.headers(await limiter.user(authenticated.user.id, bucket));
  return authenticated;
}

/** Incoming-webhook bots only send messages: every other route refuses them, as the reference does. */
export function refuseIncomingWebhookBot(user: Pick<UserRow, 'bot_type'>): void {
  if (user.bot_type === BotType.INCOMING_WEBHOOK) throw new UnauthorizedError('This API is not available to incoming webhook bots.');
}
