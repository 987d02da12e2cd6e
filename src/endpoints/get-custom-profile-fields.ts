// GET /realm/profile_fields: the organization's custom profile fields, in display order.
import { endpoint } from '../http/endpoint.js';
import { listProfileFields } from '../queries/profile-fields.js';

export default endpoint({
  method: 'GET',
  url: '/realm/profile_fields',
  params: {},
  async handler({ realm, services }) {
    return { custom_fields: await listProfileFields(services.db, realm.id) };
  },
});
