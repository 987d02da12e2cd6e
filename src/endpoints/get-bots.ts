// GET /bots: the requester's own active bots.
import { listOwnBots } from '../actions/bots.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';

export default endpoint({
  method: 'GET',
  url: '/bots',
  params: {},
  async handler({ user, realm, services }) {
    return { bots: await runAction(services, user, realm, (ctx) => listOwnBots(ctx)) };
  },
});
