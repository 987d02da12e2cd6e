// GET /users/me/subscriptions: the requester's subscriptions, by stream name.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { getSubscriptionsForUser } from '../queries/stream-access.js';

export default endpoint({
  method: 'GET',
  url: '/users/me/subscriptions',
  params: {
    include_subscribers: p.bool().default(false),
  },
  async handler({ params, user, services }) {
    return { subscriptions: await getSubscriptionsForUser(services.db, user, params.include_subscribers) };
  },
});
