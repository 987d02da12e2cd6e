// DELETE /events: remove one of the user's event queues.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/events',
  rateLimit: 'events',
  params: { queue_id: p.string() },
  handler({ params, user, services }) {
    services.queues.delete(params.queue_id, user.id);
    return {};
  },
});
