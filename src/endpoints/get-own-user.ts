// GET /users/me: the requester's own User record, with the newest message id they have.
import { endpoint } from '../http/endpoint.js';
import { userDict } from '../lib/user-format.js';
import { profileDataOfUser } from '../queries/profile-fields.js';
import { maxMessageIdForUser } from '../queries/users.js';

export default endpoint({
  method: 'GET',
  url: '/users/me',
  // The reference takes no parameters here and always sends avatar URLs and profile data.
  params: {},
  async handler({ user, realm, services }) {
    const profileData = await profileDataOfUser(services.db, realm.id, user.id);
    const dict = userDict(user, user, { clientGravatar: false, profileData });
    return { ...dict, max_message_id: await maxMessageIdForUser(services.db, user.id) };
  },
});
