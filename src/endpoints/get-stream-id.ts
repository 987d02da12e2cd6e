// GET /get_stream_id: the id of a stream the requester may read, by name.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { getStreamIdForUser } from '../queries/stream-topics.js';

export default endpoint({
  method: 'GET',
  url: '/get_stream_id',
  params: {
    stream: p.string(),
  },
  async handler({ params, user, services }) {
    return { stream_id: await getStreamIdForUser(services.db, user, params.stream) };
  },
});
