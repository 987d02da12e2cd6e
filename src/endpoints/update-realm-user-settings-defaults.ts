// PATCH /realm/user_settings_defaults: administrators set what new users start with.
import { runAction } from '../actions/context.js';
import { checkUpdateRealmUserDefaults, REALM_DEFAULT_SETTINGS } from '../actions/settings-update.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'PATCH',
  url: '/realm/user_settings_defaults',
  // Raw values: the permission check comes first, then the registry checks each value.
  params: Object.fromEntries(REALM_DEFAULT_SETTINGS.map((name) => [name, p.raw().optional()])),
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkUpdateRealmUserDefaults(ctx, params as Record<string, string | undefined>));
    return {};
  },
});
