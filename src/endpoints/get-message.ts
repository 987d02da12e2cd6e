// GET /messages/{message_id}: one message the requester may read, with its raw Markdown.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { getSingleMessage } from '../queries/single-message.js';

export default endpoint({
  method: 'GET',
  url: '/messages/:message_id',
  params: {
    message_id: p.pathInt(),
    apply_markdown: p.bool().default(true),
  },
  handler({ params, user, realm, services }) {
    return getSingleMessage(services.db, user, realm, params.message_id, { applyMarkdown: params.apply_markdown });
  },
});
