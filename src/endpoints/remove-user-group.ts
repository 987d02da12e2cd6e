// DELETE /user_groups/{user_group_id}: delete a group.
import { runAction } from '../actions/context.js';
import { deleteUserGroup } from '../actions/user-groups.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/user_groups/:user_group_id',
  params: { user_group_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => deleteUserGroup(ctx, params.user_group_id));
    return {};
  },
});
