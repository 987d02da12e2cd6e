// GET /users/me/{stream_id}/topics: the topics of a stream the requester may read, newest first.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { getStreamTopics } from '../queries/stream-topics.js';

export default endpoint({
  method: 'GET',
  url: '/users/me/:stream_id/topics',
  params: {
    stream_id: p.pathInt(),
  },
  async handler({ params, user, services }) {
    return { topics: await getStreamTopics(services.db, user, params.stream_id) };
  },
});
