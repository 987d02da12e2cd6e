// POST /fetch_api_key: trade an email and password for the API key (password login of the apps).
// Under /json, as in the reference, the web client may fetch only its own session's key, by
// giving that account's password again.
import { ApiError } from '../errors.js';
import { verifyPassword } from '../lib/credentials.js';
import { type Endpoint, endpoint, publicEndpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { rateLimiterFor } from '../http/rate-limit.js';
import { checkPasswordLogin } from '../queries/login.js';

const forApps = publicEndpoint({
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

const forTheSession = endpoint({
  method: 'POST',
  url: '/fetch_api_key',
  params: {
    password: p.string().default(''),
  },
  async handler({ params, user, services, req }) {
    // Counted as a password login, so a borrowed session cannot guess the password without limit.
    await rateLimiterFor(services).login(req.ip, user.delivery_email, async () => {
      if (params.password === '' || !(await verifyPassword(params.password, user.password_hash))) throw new ApiError('Password is incorrect.');
    });
    return { api_key: user.api_key, email: user.delivery_email };
  },
});

const fetchApiKey: Endpoint = {
  method: 'POST',
  url: '/fetch_api_key',
  params: forApps.params,
  build: (services, mode = 'api') => (mode === 'session' ? forTheSession.build(services, mode) : forApps.build(services, mode)),
};

export default fetchApiKey;
