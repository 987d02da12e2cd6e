// GET /realm/presence: everyone's presence, in the legacy form.
import { endpoint } from '../http/endpoint.js';
import { presenceResponse } from '../queries/presence-state.js';

export default endpoint({
  method: 'GET',
  url: '/realm/presence',
  params: {},
  handler({ realm, services }) {
    return presenceResponse(services.db, realm, false, Math.floor(services.clock.now()));
  },
});
