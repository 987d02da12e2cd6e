// DELETE /users/me/muted_users/{muted_user_id}: unmute a user.
import { runAction } from '../actions/context.js';
import { doUnmuteUser } from '../actions/muted-users.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/users/me/muted_users/:muted_user_id',
  params: { muted_user_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => doUnmuteUser(ctx, params.muted_user_id));
    return {};
  },
});
