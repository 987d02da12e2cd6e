// GET /users/{user_id_or_email}/presence: one user's presence, in the legacy form.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { userPresence } from '../queries/presence-state.js';

export default endpoint({
  method: 'GET',
  url: '/users/:user_id_or_email/presence',
  params: { user_id_or_email: p.pathString() },
  async handler({ params, user, realm, services }) {
    return { presence: await userPresence(services.db, user, realm, params.user_id_or_email, Math.floor(services.clock.now())) };
  },
});
