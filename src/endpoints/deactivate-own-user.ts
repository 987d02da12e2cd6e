// DELETE /users/me: the requester deactivates their own account.
import { runAction } from '../actions/context.js';
import { checkDeactivateOwnUser } from '../actions/user-deactivate.js';
import { endpoint } from '../http/endpoint.js';

export default endpoint({
  method: 'DELETE',
  url: '/users/me',
  params: {},
  async handler({ user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkDeactivateOwnUser(ctx));
    return {};
  },
});
