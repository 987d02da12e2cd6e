// POST /user_groups/{user_group_id}/members: add and remove a group's direct members.
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { updateUserGroupMembers } from '../actions/user-group-members.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/user_groups/:user_group_id/members',
  params: {
    user_group_id: p.pathInt(),
    add: p.json(z.array(z.number().int())).default([]),
    delete: p.json(z.array(z.number().int())).default([]),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => updateUserGroupMembers(ctx, params.user_group_id, params.add, params.delete));
    return {};
  },
});
