// GET /streams/{stream_id}: one stream the requester may know about.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { getStreamForUser } from '../queries/stream-access.js';

export default endpoint({
  method: 'GET',
  url: '/streams/:stream_id',
  params: {
    stream_id: p.pathInt(),
  },
  async handler({ params, user, services }) {
    return { stream: await getStreamForUser(services.db, user, params.stream_id) };
  },
});
