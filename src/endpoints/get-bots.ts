// GET /bots: the requester's own active bots.
import { listOwnBots } from '../actions/bots.js';
import { endpoint } from '../http/endpoint.js';

export default endpoint({
  method: 'GET',
  url: '/bots',
  params: {},
  async handler({ user, services }) {
    return { bots: await listOwnBots(services.db, user) };
  },
});
