// POST /mark_topic_as_read (deprecated): marks the unread messages of one topic read.
import { markStreamAsRead } from '../actions/mark-read.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/mark_topic_as_read',
  params: { stream_id: p.int(), topic_name: p.string() },
  async handler({ params, user, realm, services }) {
    await markStreamAsRead(services, user, realm, params.stream_id, params.topic_name);
    return {};
  },
});
