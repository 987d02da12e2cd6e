// GET /streams: the streams the requester asks for from the sources they may use, by name.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { getStreamsForUser } from '../queries/stream-access.js';

export default endpoint({
  method: 'GET',
  url: '/streams',
  params: {
    include_public: p.bool().default(true),
    include_web_public: p.bool().default(false),
    include_subscribed: p.bool().default(true),
    include_all_active: p.bool().default(false),
    include_default: p.bool().default(false),
    include_owner_subscribed: p.bool().default(false),
  },
  async handler({ params, user, services }) {
    const streams = await getStreamsForUser(services.db, user, {
      includePublic: params.include_public,
      includeWebPublic: params.include_web_public,
      includeSubscribed: params.include_subscribed,
      includeAllActive: params.include_all_active,
      includeDefault: params.include_default,
      includeOwnerSubscribed: params.include_owner_subscribed,
    });
    return { streams };
  },
});
