// GET /bot_storage: values from the requester's stored state, by key (all of them by default).
import { z } from 'zod';
import { getBotStorage } from '../actions/bot-storage.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'GET',
  url: '/bot_storage',
  params: {
    keys: p.json(z.array(z.string())).optional(),
  },
  async handler({ params, user, realm, services }) {
    return { storage: await runAction(services, user, realm, (ctx) => getBotStorage(ctx, params.keys)) };
  },
});
