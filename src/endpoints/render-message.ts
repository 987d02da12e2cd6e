// POST /messages/render: preview how content would render, with the requester as the sender.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { renderOrReject } from '../lib/markdown/index.js';
import { MAX_MESSAGE_LENGTH } from '../lib/message-content.js';
import { renderContextFor } from '../queries/render-context.js';

export default endpoint({
  method: 'POST',
  url: '/messages/render',
  params: { content: p.string({ maxLength: MAX_MESSAGE_LENGTH }) },
  async handler({ params, user, realm, services }) {
    const rendered = renderOrReject(params.content, await renderContextFor(services.db, realm, user, params.content));
    return { rendered: rendered.html };
  },
});
