// DELETE /events: remove one of the user's event queues.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { deleteQueueElsewhere } from '../cluster/join.js';

export default endpoint({
  method: 'DELETE',
  url: '/events',
  rateLimit: 'events',
  params: { queue_id: p.string() },
  async handler({ params, user, services }) {
    // In a cluster the queue may live in another process, which is asked to delete it.
    if (services.cluster && !services.queues.get(params.queue_id)) await deleteQueueElsewhere(services, params.queue_id, user.id);
    else services.queues.delete(params.queue_id, user.id);
    return {};
  },
});
