// POST /register: a new event queue, and the state the client starts from.
import { registerQueue } from '../events/state/register.js';
import { endpoint } from '../http/endpoint.js';
import { queueRequest, registerParams } from '../http/register-params.js';

export default endpoint({
  method: 'POST',
  url: '/register',
  params: registerParams,
  handler({ params, user, realm, services }) {
    return registerQueue(
      { db: services.db, queues: services.queues, now: Math.floor(services.clock.now()), development: services.config.dev, webPublicStreamsEnabled: services.config.webPublicStreamsEnabled, uploads: services.config },
      user,
      realm,
      { ...queueRequest(params), fetchEventTypes: params.fetch_event_types, includeSubscribers: params.include_subscribers },
    );
  },
});
