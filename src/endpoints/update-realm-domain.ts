// PATCH /realm/domains/{domain}: whether a listed domain's subdomains are admitted too (owners).
import { runAction } from '../actions/context.js';
import { changeRealmDomain } from '../actions/realm-domains.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'PATCH',
  url: '/realm/domains/:domain',
  params: { domain: p.pathString(), allow_subdomains: p.bool() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => changeRealmDomain(ctx, params.domain, params.allow_subdomains));
    return {};
  },
});
