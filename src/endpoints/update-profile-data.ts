// PATCH /users/me/profile_data: set one's own custom profile field values (people only, not bots).
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { setProfileValues } from '../actions/profile-data.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { requireHuman } from '../lib/permissions.js';
import { checkProfileDataList } from '../lib/profile-values.js';

export default endpoint({
  method: 'PATCH',
  url: '/users/me/profile_data',
  params: { data: p.json(z.unknown()).then((value, name) => checkProfileDataList(value, name, false)) },
  async handler({ params, user, realm, services }) {
    requireHuman(user);
    const entries = params.data as Array<{ id: number; value: string | number[] }>;
    await runAction(services, user, realm, (ctx) => setProfileValues(ctx, ctx.actor, entries));
    return {};
  },
});
