// GET /invites: the usable invitation links the requester controls (all of them, for administrators).
import { getInvitesControlledBy } from '../actions/invites.js';
import { endpoint } from '../http/endpoint.js';

export default endpoint({
  method: 'GET',
  url: '/invites',
  params: {},
  async handler({ user, realm, services }) {
    return { invites: await getInvitesControlledBy(services.db, user, realm, Math.floor(services.clock.now())) };
  },
});
