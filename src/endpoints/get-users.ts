// GET /users: every user of the organization, active and deactivated, bots included, by id.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { userDict } from '../lib/user-format.js';
import { realmUsers } from '../queries/kept-lists.js';

export default endpoint({
  method: 'GET',
  url: '/users',
  params: {
    client_gravatar: p.bool().default(true),
    include_custom_profile_fields: p.bool().default(false),
  },
  async handler({ params, user, realm, services }) {
    const users = await realmUsers(services.db, realm.id);
    const options = {
      clientGravatar: params.client_gravatar,
      ...(params.include_custom_profile_fields ? { profileData: {} } : {}),
    };
    return { members: users.map((target) => userDict(user, target, options)) };
  },
});
