// PATCH /realm/user_settings_defaults: administrators set what new users start with.
import { runAction } from '../actions/context.js';
import { checkUpdateRealmUserDefaults, REALM_DEFAULT_SETTINGS } from '../actions/settings-update.js';
import { endpoint } from '../http/endpoint.js';
import { rawOptional } from '../http/params.js';

export default endpoint({
  method: 'PATCH',
  url: '/realm/user_settings_defaults',
  // Raw values: the permission check comes first, then the registry checks each value.
  params: rawOptional(REALM_DEFAULT_SETTINGS),
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkUpdateRealmUserDefaults(ctx, params));
    return {};
  },
});
