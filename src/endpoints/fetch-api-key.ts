// POST /fetch_api_key: trade an email and password for the API key (password login of the apps).
import { publicEndpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { rateLimiterFor } from '../http/rate-limit.js';
import { checkPasswordLogin } from '../queries/login.js';

export default publicEndpoint({
  method: 'POST',
  url: '/fetch_api_key',
  params: {
    username: p.string(),
    password: p.string(),
  },
  async handler({ params, realm, services, req }) {
    const user = await rateLimiterFor(services).login(req.ip, params.username, () =>
      checkPasswordLogin(services.db, realm, params.username, params.password),
    );
    return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };
  },
});
