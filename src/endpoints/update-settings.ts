// PATCH /settings: the user's identity and personal settings. PATCH /settings/display and
// PATCH /settings/notifications are deprecated aliases built from the same definition.
import { PERSONAL_SETTINGS, updateSettings } from '../actions/settings-update.js';
import { type Endpoint, endpoint } from '../http/endpoint.js';
import { p, rawOptional } from '../http/params.js';

/** Every registry setting arrives raw; the action checks it against the registry. */
const settingParams = rawOptional(PERSONAL_SETTINGS);

export function settingsEndpoint(url: string): Endpoint {
  return endpoint({
    method: 'PATCH',
    url,
    // A new password: the session that set it stays, the others end.
    changesCredentials: true,
    params: {
      full_name: p.string().optional(),
      email: p.string().optional(),
      old_password: p.string().optional(),
      new_password: p.string().optional(),
      ...settingParams,
    },
    async handler({ params, user, realm, services }) {
      const { full_name, email, old_password, new_password, ...settings } = params;
      await updateSettings(services, user, realm, {
        fullName: full_name,
        email,
        oldPassword: old_password,
        newPassword: new_password,
        settings,
      });
      return {};
    },
  });
}

export default settingsEndpoint('/settings');
