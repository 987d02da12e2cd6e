// DELETE /realm/icon: back to the default icon (administrators). The uploaded file stays, as in
// the reference: a cached URL may still name it, and the next upload replaces it.
import { runAction } from '../actions/context.js';
import { doChangeRealmImage } from '../actions/realm-icon.js';
import { endpoint } from '../http/endpoint.js';
import { realmIconUrl } from '../lib/realm-images.js';

export default endpoint({
  method: 'DELETE',
  url: '/realm/icon',
  params: {},
  async handler({ user, realm, services }) {
    const changed = await runAction(services, user, realm, (ctx) => doChangeRealmImage(ctx, 'icon', false));
    return { icon_url: realmIconUrl(changed) };
  },
});
