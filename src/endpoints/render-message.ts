// POST /messages/render: preview how content would render, with the requester as the sender.
import { renderAsUser } from '../actions/message-render.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_MESSAGE_LENGTH } from '../lib/message-content.js';
import { renderContextFor } from '../queries/render-context.js';

export default endpoint({
  method: 'POST',
  url: '/messages/render',
  params: { content: p.string({ maxLength: MAX_MESSAGE_LENGTH }) },
  async handler({ params, user, realm, services }) {
    const context = await renderContextFor(services.db, realm, user, params.content);
    const rendered = renderAsUser(services, user.id, params.content, context);
    return { rendered: rendered.html };
  },
});
