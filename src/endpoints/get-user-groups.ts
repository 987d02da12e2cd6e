// GET /user_groups: the organization's user groups (members and administrators only).
import { ApiError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { isGuest } from '../lib/roles.js';
import { listUserGroups } from '../queries/user-groups.js';

export default endpoint({
  method: 'GET',
  url: '/user_groups',
  params: {
    // Groups are never deactivated here, so the answer is the same either way.
    include_deactivated_groups: p.bool().default(false),
  },
  async handler({ user, realm, services }) {
    if (isGuest(user)) throw new ApiError('Not allowed for guest users');
    if (user.is_bot) throw new ApiError('This endpoint does not accept bot requests.');
    return { user_groups: await listUserGroups(services.db, realm, Math.floor(services.clock.now())) };
  },
});
