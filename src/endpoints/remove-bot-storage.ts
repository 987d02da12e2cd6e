// DELETE /bot_storage: forget keys of the requester's stored state (all of them by default).
import { z } from 'zod';
import { removeBotStorage } from '../actions/bot-storage.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/bot_storage',
  params: {
    keys: p.json(z.array(z.string())).optional(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => removeBotStorage(ctx, params.keys));
    return {};
  },
});
