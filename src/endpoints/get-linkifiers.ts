// GET /realm/linkifiers: the realm's linkifiers in the order they apply.
import { endpoint } from '../http/endpoint.js';
import { listLinkifiers } from '../queries/linkifiers.js';

export default endpoint({
  method: 'GET',
  url: '/realm/linkifiers',
  params: {},
  async handler({ realm, services }) {
    return { linkifiers: await listLinkifiers(services.db, realm.id) };
  },
});
