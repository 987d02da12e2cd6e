// DELETE /realm/logo: back to the default logo (night=true: the dark theme's), administrators only.
import { runAction } from '../actions/context.js';
import { doChangeRealmImage } from '../actions/realm-icon.js';
import { RequestVariableMissingError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { requireAdmin } from '../lib/permissions.js';

export default endpoint({
  method: 'DELETE',
  url: '/realm/logo',
  params: { night: p.bool().optional() },
  async handler({ params, user, realm, services }) {
    requireAdmin(user);
    // Required, but only once the caller is known to be an administrator (the reference's order).
    if (params.night === undefined) throw new RequestVariableMissingError('night');
    await runAction(services, user, realm, (ctx) => doChangeRealmImage(ctx, params.night ? 'night_logo' : 'logo', false));
    return {};
  },
});
