// PATCH /realm: administrators change the organization's name, description and settings.
import { runAction } from '../actions/context.js';
import { checkUpdateRealm, REALM_PATCH_NAMES } from '../actions/realm-update.js';
import { endpoint } from '../http/endpoint.js';
import { p, rawOptional } from '../http/params.js';

export default endpoint({
  method: 'PATCH',
  url: '/realm',
  // Raw values: the permission check comes first, then each value is checked by its rule.
  params: {
    name: p.raw().optional(),
    description: p.raw().optional(),
    allow_edit_history: p.raw().optional(),
    ...rawOptional(REALM_PATCH_NAMES),
  },
  async handler({ params, user, realm, services }) {
    const { name, description, allow_edit_history, ...settings } = params;
    return runAction(services, user, realm, (ctx) =>
      checkUpdateRealm(ctx, {
        name,
        description,
        allowEditHistory: allow_edit_history,
        settings,
      }),
    );
  },
});
