// GET /accounts/confirm_new_email/{confirmation_key}: the link mailed by an email change.
// Following it changes the address. Browsers get a short page, API clients the usual JSON.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { runSystemAction } from '../actions/context.js';
import { CONFIRM_EMAIL_PATH, confirmEmailChange } from '../actions/email-change.js';
import { sendOrFail } from '../actions/settings-update.js';
import { ApiError } from '../errors.js';
import { publicEndpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { escapeHtml } from '../lib/markdown/index.js';

function wantsHtml(req: FastifyRequest): boolean {
  return /\btext\/html\b/.test(req.headers.accept ?? '');
}

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(`<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></body></html>\n`);
}

export default publicEndpoint({
  method: 'GET',
  url: `${CONFIRM_EMAIL_PATH}/:confirmation_key`,
  params: {
    confirmation_key: p.pathString(),
  },
  async handler({ params, services, req, reply }) {
    try {
      const change = await runSystemAction(services, (ctx) => confirmEmailChange(ctx, params.confirmation_key));
      // The change stands even if the notice to the old address cannot be sent.
      await sendOrFail(services, change.notice).catch(() => undefined);
      if (wantsHtml(req)) {
        page(reply, 200, 'Email address updated', `Your email address has been changed from ${change.oldEmail} to ${change.newEmail}.`);
        return {};
      }
      return { old_email: change.oldEmail, new_email: change.newEmail };
    } catch (error) {
      if (!(error instanceof ApiError) || !wantsHtml(req)) throw error;
      page(reply, error.status, 'Whoops', error.message);
      return {};
    }
  },
});
