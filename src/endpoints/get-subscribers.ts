// GET /streams/{stream_id}/members: ids of a stream's active subscribers.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { getSubscribersForUser } from '../queries/stream-access.js';

export default endpoint({
  method: 'GET',
  url: '/streams/:stream_id/members',
  params: {
    stream_id: p.pathInt(),
  },
  async handler({ params, user, services }) {
    return { subscribers: await getSubscribersForUser(services.db, user, params.stream_id) };
  },
});
