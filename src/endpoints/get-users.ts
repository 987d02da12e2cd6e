// GET /users: every user of the organization, active and deactivated, bots included, by id.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { userDict } from '../lib/user-format.js';
import { realmUsers } from '../queries/kept-lists.js';
import { profileDataOf } from '../queries/profile-fields.js';

export default endpoint({
  method: 'GET',
  url: '/users',
  params: {
    client_gravatar: p.bool().default(true),
    include_custom_profile_fields: p.bool().default(false),
  },
  async handler({ params, user, realm, services }) {
    const users = await realmUsers(services.db, realm.id);
    const profiles = params.include_custom_profile_fields ? await profileDataOf(services.db, realm.id) : null;
    const options = (target: { id: number }) => ({
      clientGravatar: params.client_gravatar,
      ...(profiles ? { profileData: profiles.get(target.id) ?? {} } : {}),
    });
    return { members: users.map((target) => userDict(user, target, options(target))) };
  },
});
