// GET /bot_storage: values from the requester's stored state, by key (all of them by default).
import { z } from 'zod';
import { getBotStorage } from '../actions/bot-storage.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'GET',
  url: '/bot_storage',
  params: {
    keys: p.json(z.array(z.string())).optional(),
  },
  async handler({ params, user, services }) {
    return { storage: await getBotStorage(services.db, user.id, params.keys) };
  },
});
