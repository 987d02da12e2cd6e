// GET /users/{email}: one user of the organization, found by email address.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { userDict } from '../lib/user-format.js';
import { profileDataOfUser } from '../queries/profile-fields.js';
import { accessUserByEmail } from '../queries/users.js';

export default endpoint({
  method: 'GET',
  url: '/users/:email',
  params: {
    email: p.pathString(),
    client_gravatar: p.bool().default(true),
    include_custom_profile_fields: p.bool().default(false),
  },
  async handler({ params, user, realm, services }) {
    const target = await accessUserByEmail(services.db, user, realm, params.email);
    return {
      user: userDict(user, target, {
        clientGravatar: params.client_gravatar,
        ...(params.include_custom_profile_fields ? { profileData: await profileDataOfUser(services.db, realm.id, target.id) } : {}),
      }),
    };
  },
});
