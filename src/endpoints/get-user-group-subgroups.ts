// GET /user_groups/{user_group_id}/subgroups: a group's subgroups, all the way down unless direct_subgroup_only.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { getUserGroupSubgroups } from '../queries/user-group-members.js';

export default endpoint({
  method: 'GET',
  url: '/user_groups/:user_group_id/subgroups',
  params: {
    user_group_id: p.pathInt(),
    direct_subgroup_only: p.bool().default(false),
  },
  async handler({ params, user, realm, services }) {
    const now = Math.floor(services.clock.now());
    return { subgroups: await getUserGroupSubgroups(services.db, realm, user, params.user_group_id, params.direct_subgroup_only, now) };
  },
});
