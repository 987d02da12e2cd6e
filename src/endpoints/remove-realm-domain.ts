// DELETE /realm/domains/{domain}: stop admitting an email domain (owners).
import { runAction } from '../actions/context.js';
import { removeRealmDomain } from '../actions/realm-domains.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/realm/domains/:domain',
  params: { domain: p.pathString() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => removeRealmDomain(ctx, params.domain));
    return {};
  },
});
