// PUT /bot_storage: set keys of the requester's stored state.
import { z } from 'zod';
import { putBotStorage } from '../actions/bot-storage.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'PUT',
  url: '/bot_storage',
  params: {
    storage: p.json(z.record(z.string(), z.string())),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => putBotStorage(ctx, params.storage));
    return {};
  },
});
