// GET /user_groups/{user_group_id}/members/{user_id}: whether a user is in a group.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { isUserGroupMember } from '../queries/user-group-members.js';

export default endpoint({
  method: 'GET',
  url: '/user_groups/:user_group_id/members/:user_id',
  params: {
    user_group_id: p.pathInt(),
    user_id: p.pathInt(),
    direct_member_only: p.bool().default(false),
  },
  async handler({ params, user, realm, services }) {
    const ids = { group: params.user_group_id, user: params.user_id };
    const now = Math.floor(services.clock.now());
    return { is_user_group_member: await isUserGroupMember(services.db, realm, user, ids, params.direct_member_only, now) };
  },
});
