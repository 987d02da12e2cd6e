// DELETE /users/me/avatar: back to the default avatar.
import { deleteAvatar } from '../actions/avatar-files.js';
import { endpoint } from '../http/endpoint.js';
import { avatarUrl } from '../lib/user-format.js';

export default endpoint({
  method: 'DELETE',
  url: '/users/me/avatar',
  params: {},
  async handler({ user, realm, services }) {
    return { avatar_url: avatarUrl(await deleteAvatar(services, user, realm), false) };
  },
});
