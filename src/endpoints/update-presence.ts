// POST /users/me/presence: a client's presence ping; answers with everyone's presence.
import { doUpdateUserPresence, parsePresenceStatus } from '../actions/presence.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { requireHuman } from '../lib/permissions.js';
import { presenceResponse } from '../queries/presence-state.js';

export default endpoint({
  method: 'POST',
  url: '/users/me/presence',
  params: {
    status: p.string(),
    ping_only: p.bool().default(false),
    new_user_input: p.bool().default(false),
    slim_presence: p.bool().default(false),
  },
  async handler({ params, user, realm, services }) {
    requireHuman(user);
    const status = parsePresenceStatus(params.status);
    await runAction(services, user, realm, (ctx) => doUpdateUserPresence(ctx, status));
    if (params.ping_only) return {};
    return presenceResponse(services.db, realm, params.slim_presence, Math.floor(services.clock.now()));
  },
});
