// POST /bots/{bot_id}/api_key/regenerate: a new API key for the bot; the old one stops working.
import { checkRegenerateBotApiKey } from '../actions/bots.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/bots/:bot_id/api_key/regenerate',
  params: {
    bot_id: p.pathInt(),
  },
  async handler({ params, user, realm, services }) {
    return { api_key: await runAction(services, user, realm, (ctx) => checkRegenerateBotApiKey(ctx, params.bot_id)) };
  },
});
