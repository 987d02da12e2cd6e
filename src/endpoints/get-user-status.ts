// GET /users/{user_id}/status: a user's status, with only the fields they have set.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { accessUserStatus } from '../queries/user-status.js';

export default endpoint({
  method: 'GET',
  url: '/users/:user_id/status',
  params: { user_id: p.pathInt() },
  async handler({ params, realm, services }) {
    return { status: await accessUserStatus(services.db, realm.id, params.user_id) };
  },
});
