// POST /mark_stream_as_read (deprecated): marks the unread messages of one stream read.
import { markStreamAsRead } from '../actions/mark-read.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/mark_stream_as_read',
  params: { stream_id: p.int() },
  async handler({ params, user, realm, services }) {
    await markStreamAsRead(services, user, realm, params.stream_id);
    return {};
  },
});
