// GET /users/{user_id}: one user of the organization, active or not.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { userDict } from '../lib/user-format.js';
import { profileDataOfUser } from '../queries/profile-fields.js';
import { accessUserById } from '../queries/users.js';

export default endpoint({
  method: 'GET',
  url: '/users/:user_id(^\\d+$)',
  params: {
    user_id: p.pathInt(),
    client_gravatar: p.bool().default(true),
    include_custom_profile_fields: p.bool().default(false),
  },
  async handler({ params, user, realm, services }) {
    const target = await accessUserById(services.db, realm.id, params.user_id);
    return {
      user: userDict(user, target, {
        clientGravatar: params.client_gravatar,
        ...(params.include_custom_profile_fields ? { profileData: await profileDataOfUser(services.db, realm.id, target.id) } : {}),
      }),
    };
  },
});
