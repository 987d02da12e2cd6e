// POST /user_groups/{user_group_id}/subgroups: add and remove a group's direct subgroups.
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { updateUserGroupSubgroups } from '../actions/user-group-members.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/user_groups/:user_group_id/subgroups',
  params: {
    user_group_id: p.pathInt(),
    add: p.json(z.array(z.number().int())).default([]),
    delete: p.json(z.array(z.number().int())).default([]),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => updateUserGroupSubgroups(ctx, params.user_group_id, params.add, params.delete));
    return {};
  },
});
