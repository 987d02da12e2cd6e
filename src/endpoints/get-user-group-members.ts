// GET /user_groups/{user_group_id}/members: a group's members, through its subgroups unless direct_member_only.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { getUserGroupMembers } from '../queries/user-group-members.js';

export default endpoint({
  method: 'GET',
  url: '/user_groups/:user_group_id/members',
  params: {
    user_group_id: p.pathInt(),
    direct_member_only: p.bool().default(false),
  },
  async handler({ params, user, realm, services }) {
    const now = Math.floor(services.clock.now());
    return { members: await getUserGroupMembers(services.db, realm, user, params.user_group_id, params.direct_member_only, now) };
  },
});
