// DELETE /users/me/profile_data: clear one's own values for the given fields (people only, not bots).
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { clearProfileValues } from '../actions/profile-data.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { requireHuman } from '../lib/permissions.js';

export default endpoint({
  method: 'DELETE',
  url: '/users/me/profile_data',
  params: { data: p.json(z.array(z.number().int())) },
  async handler({ params, user, realm, services }) {
    requireHuman(user);
    await runAction(services, user, realm, (ctx) => clearProfileValues(ctx, ctx.actor, params.data));
    return {};
  },
});
