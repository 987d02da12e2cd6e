// GET /messages/{message_id}/read_receipts: the ids of users who have read the message.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { readReceipts } from '../queries/read-receipts.js';

export default endpoint({
  method: 'GET',
  url: '/messages/:message_id/read_receipts',
  params: { message_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    return { user_ids: await readReceipts(services.db, user, realm, params.message_id) };
  },
});
