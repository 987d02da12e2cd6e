// POST /streams/{stream_id}/delete_topic: administrators delete every message of a topic.
import { deleteTopic } from '../actions/topic-delete.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/streams/:stream_id/delete_topic',
  params: { stream_id: p.pathInt(), topic_name: p.string() },
  async handler({ params, user, realm, services }) {
    return { complete: await deleteTopic(services, user, realm, params.stream_id, params.topic_name) };
  },
});
