// GET /users/{user_id}/subscriptions/{stream_id}: whether a user is subscribed to a stream.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { getSubscriptionStatus } from '../queries/stream-topics.js';

export default endpoint({
  method: 'GET',
  url: '/users/:user_id/subscriptions/:stream_id',
  params: {
    user_id: p.pathInt(),
    stream_id: p.pathInt(),
  },
  async handler({ params, user, services }) {
    return { is_subscribed: await getSubscriptionStatus(services.db, user, params.user_id, params.stream_id) };
  },
});
