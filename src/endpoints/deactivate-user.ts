// DELETE /users/{user_id}: an administrator deactivates another account.
import { runAction } from '../actions/context.js';
import { checkDeactivateUser } from '../actions/user-deactivate.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/users/:user_id(^\\d+$)',
  params: {
    user_id: p.pathInt(),
    // Accepted for compatibility; no notification email is sent.
    deactivation_notification_comment: p.string({ maxLength: 2000 }).optional(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkDeactivateUser(ctx, params.user_id));
    return {};
  },
});
