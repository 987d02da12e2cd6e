// GET /user_groups: the organization's user groups (members and administrators only).
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { requireHuman, requireNotGuest } from '../lib/permissions.js';
import { listUserGroups } from '../queries/user-groups.js';

export default endpoint({
  method: 'GET',
  url: '/user_groups',
  params: {
    // Groups are never deactivated here, so the answer is the same either way.
    include_deactivated_groups: p.bool().default(false),
  },
  async handler({ user, realm, services }) {
    requireNotGuest(user);
    requireHuman(user);
    return { user_groups: await listUserGroups(services.db, realm, Math.floor(services.clock.now())) };
  },
});
