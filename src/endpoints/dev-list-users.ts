// GET /dev_list_users: on development servers, the accounts one may log in as (admins first).
import { publicEndpoint } from '../http/endpoint.js';
import { listDevUsers } from '../queries/login.js';

export default publicEndpoint({
  method: 'GET',
  url: '/dev_list_users',
  params: {},
  handler({ services }) {
    return listDevUsers(services.db, services.config.dev);
  },
});
