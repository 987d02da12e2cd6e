// GET /realm/domains: the organization's email domains for sign-up (any member may read them).
import { endpoint } from '../http/endpoint.js';
import { listRealmDomains } from '../queries/realm-domains.js';

export default endpoint({
  method: 'GET',
  url: '/realm/domains',
  params: {},
  async handler({ realm, services }) {
    return { domains: await listRealmDomains(services.db, realm.id) };
  },
});
