// The pages of a forgotten password: the form that mails a reset link, the note that it was sent,
// and the link's page that sets the new password and logs the browser in. The form's answer is
// the same whether or not the address has an account here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { runSystemAction } from '../actions/context.js';
import { checkNewPassword, doResetPassword, PASSWORD_RESET_PATH, requestPasswordReset, ResetLinkError, userOfResetLink } from '../actions/password-reset.js';
import { mailTransportFor } from '../adapters/mail/transport.js';
import { ApiError, RateLimitedError } from '../errors.js';
import { isLoginEmail } from '../lib/credentials.js';
import { escapeHtml } from '../lib/markdown/escape.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../lib/password-strength.js';
import { getRealmForHost } from '../queries/realms.js';
import type { Services } from '../services.js';
import { checkFormPost, formValue, PAGE_HEADERS, page, startSession, tokenField } from './html-pages.js';
import { rateLimiterFor } from './rate-limit.js';

const DONE_PATH = `${PASSWORD_RESET_PATH}/done/`;

const alert = (error: string | undefined) => (error ? `<p role="alert">${escapeHtml(error)}</p>` : '');

function requestForm(token: string, error?: string, email = ''): string {
  return page(
    'Reset your password',
    `<h1>Reset your password</h1>${alert(error)}
<p>Enter your email address and we will send you a link to set a new password.</p>
<form method="post" action="${PASSWORD_RESET_PATH}/">${token}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" value="${escapeHtml(email)}" required>
<button type="submit">Reset password</button></form>
<p><a href="/login/">Back to log in</a></p>`,
  );
}

function setPasswordForm(token: string, linkToken: string, error?: string): string {
  const field = (id: string, label: string) =>
    `<label for="${id}">${label}</label><input id="${id}" name="${id}" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}" required>`;
  return page(
    'Set a new password',
    `<h1>Set a new password</h1>${alert(error)}
<form method="post" action="${PASSWORD_RESET_PATH}/${escapeHtml(linkToken)}/">${token}
${field('new_password1', 'New password')}
${field('new_password2', 'Confirm password')}
<button type="submit">Reset password</button></form>`,
  );
}

function linkErrorPage(error: ResetLinkError): string {
  return page('Reset your password', `<h1>Reset your password</h1><p role="alert">${escapeHtml(error.message)}</p>
<p><a href="${PASSWORD_RESET_PATH}/">Ask for a new link</a></p>`);
}

/** The reference's page for a refused request; its Retry-After header says the same in seconds. */
function rateLimitPage(error: RateLimitedError): string {
  const seconds = Math.ceil(Number(error.headers['Retry-After'] ?? 0));
  return page(
    'Rate limit exceeded',
    `<h1>Rate limit exceeded.</h1><p role="alert">You have exceeded the limit for how often a user can perform this action. You can try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.</p>`,
  );
}

function linkTokenOf(req: FastifyRequest): string {
  return (req.params as { token?: string }).token ?? '';
}

function sendPage(reply: FastifyReply, error: ApiError, body: string) {
  return reply.code(error.status).headers({ ...PAGE_HEADERS, ...error.headers }).send(body);
}

export function registerPasswordResetPages(app: FastifyInstance, services: Services): void {
  app.get(PASSWORD_RESET_PATH, async (req, reply) => reply.headers(PAGE_HEADERS).send(requestForm(tokenField(services, req, reply))));

  app.post(PASSWORD_RESET_PATH, async (req, reply) => {
    const email = (formValue(req, 'email') ?? '').trim();
    try {
      checkFormPost(req);
      if (!isLoginEmail(email)) throw new ApiError('Enter a valid email address.');
      const realm = await getRealmForHost(services.db, req.headers.host);
      if (realm && !realm.deactivated) {
        await rateLimiterFor(services).passwordReset(req.ip, email);
        const mail = await runSystemAction(services, (ctx) => requestPasswordReset(ctx, realm, email));
        // A mail that cannot go out is the operator's to see; the visitor's answer stays the same.
        if (mail) await mailTransportFor(services).send(mail).catch((error: unknown) => services.log?.error({ err: error }, 'password reset mail not sent'));
      }
      return reply.code(302).header('location', DONE_PATH).send();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error instanceof RateLimitedError) return sendPage(reply, error, rateLimitPage(error));
      return sendPage(reply, error, requestForm(tokenField(services, req, reply), error.message, email));
    }
  });

  app.get(DONE_PATH, async (_req, reply) =>
    reply.headers(PAGE_HEADERS).send(page('Check your email', '<h1>Check your email</h1><p>Check your email in a few minutes to finish the process.</p>')),
  );

  app.get(`${PASSWORD_RESET_PATH}/:token`, async (req, reply) => {
    const realm = await getRealmForHost(services.db, req.headers.host);
    try {
      await userOfResetLink(services.db, realm, linkTokenOf(req), services.clock.now());
      return reply.headers(PAGE_HEADERS).send(setPasswordForm(tokenField(services, req, reply), linkTokenOf(req)));
    } catch (error) {
      if (!(error instanceof ResetLinkError)) throw error;
      return sendPage(reply, error, linkErrorPage(error));
    }
  });

  app.post(`${PASSWORD_RESET_PATH}/:token`, async (req, reply) => {
    const realm = await getRealmForHost(services.db, req.headers.host);
    const linkToken = linkTokenOf(req);
    try {
      checkFormPost(req);
      await userOfResetLink(services.db, realm, linkToken, services.clock.now());
      const hash = await checkNewPassword(formValue(req, 'new_password1') ?? '', formValue(req, 'new_password2') ?? '');
      const user = await runSystemAction(services, (ctx) => doResetPassword(ctx, realm, linkToken, hash));
      return await startSession(services, req, reply, user, '/');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error instanceof ResetLinkError) return sendPage(reply, error, linkErrorPage(error));
      return sendPage(reply, error, setPasswordForm(tokenField(services, req, reply), linkToken, error.message));
    }
  });
}
