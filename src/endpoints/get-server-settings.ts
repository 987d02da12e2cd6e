// GET /server_settings: what a client needs before logging in. No authentication.
import { publicEndpoint } from '../http/endpoint.js';
import { realmIconUrl, renderRealmDescription } from '../lib/realm-format.js';
import { realmSettings, webPublicAccessEnabled } from '../lib/realm-settings.js';
import { versionFields } from '../lib/version.js';

export default publicEndpoint({
  method: 'GET',
  url: '/server_settings',
  params: {},
  handler({ realm, services }) {
    const dev = services.config.dev;
    const realmFields = realm
      ? {
          realm_uri: realm.url,
          realm_url: realm.url,
          realm_name: realm.name,
          realm_icon: realmIconUrl(realm),
          realm_description: renderRealmDescription(realm.description),
          realm_web_public_access_enabled: webPublicAccessEnabled(services.config, realmSettings(realm)),
        }
      : {};
    return {
      authentication_methods: {
        password: true,
        dev,
        email: true,
        ldap: false,
        remoteuser: false,
        github: false,
        azuread: false,
        gitlab: false,
        apple: false,
        google: false,
        saml: false,
        'openid connect': false,
      },
      external_authentication_methods: [],
      ...versionFields(),
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      ...realmFields,
    };
  },
});
