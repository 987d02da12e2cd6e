// DELETE /bots/{bot_id}: the bot's owner or an administrator deactivates it.
import { checkDeactivateBot } from '../actions/bots.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/bots/:bot_id',
  params: {
    bot_id: p.pathInt(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkDeactivateBot(ctx, params.bot_id));
    return {};
  },
});
