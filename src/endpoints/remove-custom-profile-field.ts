// DELETE /realm/profile_fields/{field_id}: delete a field and every user's value for it (administrators).
import { runAction } from '../actions/context.js';
import { removeProfileField } from '../actions/profile-fields.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/realm/profile_fields/:field_id',
  params: { field_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => removeProfileField(ctx, params.field_id));
    return {};
  },
});
