// The page a reusable invitation link opens (/join/{key}/): a sign-up form that creates the
// account, logs the browser in (a session, as the login page starts one) and opens the web client.
// Links that cannot be used get a page saying so; a refused form comes back with the reason.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { runSystemAction } from '../actions/context.js';
import { AlreadyRegisteredError, accessInviteByKey, doSignUpWithInvite, InviteLinkError, type SignupRequest } from '../actions/invite-signup.js';
import type { MultiuseInviteRow, RealmRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { escapeHtml } from '../lib/markdown/escape.js';
import { Role } from '../lib/roles.js';
import { getRealmForHost } from '../queries/realms.js';
import type { Services } from '../services.js';
import { checkFormPost, formValue, PAGE_HEADERS, page, startSession, tokenField } from './html-pages.js';
import { loginForm } from './login-pages.js';
import { rateLimiterFor } from './rate-limit.js';

const ROLE_PHRASES: Record<number, string> = {
  [Role.OWNER]: 'an organization owner',
  [Role.ADMINISTRATOR]: 'an organization administrator',
  [Role.MODERATOR]: 'a moderator',
  [Role.MEMBER]: 'a member',
  [Role.GUEST]: 'a guest',
};

/** What the sign-up form is shown for: the link, and the fields as filled in with the reason they were refused. */
interface SignupFormState {
  realm: RealmRow;
  invite: MultiuseInviteRow;
  key: string;
  values?: Partial<SignupRequest>;
  error?: string;
}

function signupForm(token: string, { realm, invite, key, values = {}, error }: SignupFormState): string {
  const field = (id: string, label: string, input: string) => `<label for="${id}">${label}</label>${input}`;
  return page(
    `Sign up · ${realm.name}`,
    `<h1>Sign up for ${escapeHtml(realm.name)}</h1>
<p>You are invited to join as ${ROLE_PHRASES[invite.invited_as] ?? 'a member'}.</p>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/join/${escapeHtml(key)}/">${token}
${field('email', 'Email', `<input id="email" name="email" type="email" autocomplete="email" value="${escapeHtml(values.email ?? '')}" required>`)}
${field('full_name', 'Full name', `<input id="full_name" name="full_name" autocomplete="name" maxlength="100" value="${escapeHtml(values.fullName ?? '')}" required>`)}
${field('password', 'Password', '<input id="password" name="password" type="password" autocomplete="new-password" minlength="6" maxlength="100" required>')}
<button type="submit">Sign up</button></form>
<p>Already have an account? <a href="/login/">Log in</a></p>`,
  );
}

function linkErrorPage(error: InviteLinkError): string {
  return page('Invitation link', `<h1>${escapeHtml(error.heading)}</h1><p>${escapeHtml(error.detail)}</p>`);
}

function keyOf(req: FastifyRequest): string {
  return (req.params as { key?: string }).key ?? '';
}

export function registerJoinPages(app: FastifyInstance, services: Services): void {
  app.get('/join/:key', async (req, reply) => {
    const hostRealm = await getRealmForHost(services.db, req.headers.host);
    try {
      const { invite, realm } = await accessInviteByKey(services.db, hostRealm, keyOf(req), Math.floor(services.clock.now()));
      return reply.headers(PAGE_HEADERS).send(signupForm(tokenField(services, req, reply), { realm, invite, key: keyOf(req) }));
    } catch (error) {
      if (!(error instanceof InviteLinkError)) throw error;
      return reply.code(error.status).headers(PAGE_HEADERS).send(linkErrorPage(error));
    }
  });

  app.post('/join/:key', async (req, reply) => {
    const hostRealm = await getRealmForHost(services.db, req.headers.host);
    const key = keyOf(req);
    const request: SignupRequest = {
      email: formValue(req, 'email') ?? '',
      fullName: formValue(req, 'full_name') ?? '',
      password: formValue(req, 'password') ?? '',
    };
    try {
      checkFormPost(req);
      const user = await rateLimiterFor(services).signup(req.ip, () =>
        runSystemAction(services, (ctx) => doSignUpWithInvite(ctx, hostRealm, key, request)),
      );
      return await startSession(services, req, reply, user, '/');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const headers = { ...PAGE_HEADERS, ...error.headers };
      if (error instanceof InviteLinkError) return reply.code(error.status).headers(headers).send(linkErrorPage(error));
      if (error instanceof AlreadyRegisteredError) {
        return reply.code(error.status).headers(headers).send(loginForm(services, req, reply, hostRealm, { next: '/', error: error.message, email: error.email }));
      }
      // The form again, as filled in (but the password), with the reason: only for a usable link.
      const link = await accessInviteByKey(services.db, hostRealm, key, Math.floor(services.clock.now())).catch((linkError: unknown) => {
        if (linkError instanceof InviteLinkError) return linkError;
        throw linkError;
      });
      if (link instanceof InviteLinkError) return reply.code(link.status).headers(headers).send(linkErrorPage(link));
      const form = signupForm(tokenField(services, req, reply), { ...link, key, values: request, error: error.message });
      return reply.code(error.status).headers(headers).send(form);
    }
  });
}
