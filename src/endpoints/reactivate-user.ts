// POST /users/{user_id}/reactivate: an administrator (or a bot's owner) reactivates an account.
import { runAction } from '../actions/context.js';
import { checkReactivateUser } from '../actions/user-deactivate.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/users/:user_id/reactivate',
  params: {
    user_id: p.pathInt(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkReactivateUser(ctx, params.user_id));
    return {};
  },
});
