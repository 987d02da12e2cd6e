// GET /users/me: the requester's own User record, with the newest message id they have.
import { endpoint } from '../http/endpoint.js';
import { userDict } from '../lib/user-format.js';
import { ownProfileData } from '../queries/profile-fields.js';
import { maxMessageIdNow } from '../queries/users.js';

export default endpoint({
  method: 'GET',
  url: '/users/me',
  // The reference takes no parameters here and always sends avatar URLs and profile data.
  params: {},
  async handler({ user, realm, services }) {
    const [profileData, maxMessageId] = await Promise.all([ownProfileData(services.store, realm.id, user.id), maxMessageIdNow(services.store, user.id)]);
    const dict = userDict(user, user, { clientGravatar: false, profileData });
    return { ...dict, max_message_id: maxMessageId };
  },
});
