// POST /dev_fetch_api_key: on development servers, the API key of any account by email alone.
import { publicEndpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { checkDevLogin } from '../queries/login.js';

export default publicEndpoint({
  method: 'POST',
  url: '/dev_fetch_api_key',
  params: {
    username: p.string(),
  },
  async handler({ params, realm, services }) {
    const user = await checkDevLogin(services.db, services.config.dev, realm, params.username);
    return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };
  },
});
