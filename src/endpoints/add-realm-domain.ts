// POST /realm/domains: admit an email domain for sign-up (owners).
import { runAction } from '../actions/context.js';
import { addRealmDomain } from '../actions/realm-domains.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/realm/domains',
  params: { domain: p.string(), allow_subdomains: p.bool() },
  async handler({ params, user, realm, services }) {
    const newDomain = await runAction(services, user, realm, (ctx) => addRealmDomain(ctx, params.domain, params.allow_subdomains));
    return { new_domain: newDomain };
  },
});
