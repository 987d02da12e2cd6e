// PATCH /realm/linkifiers: set the order linkifiers apply in (administrators).
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { reorderLinkifiers } from '../actions/linkifiers.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'PATCH',
  url: '/realm/linkifiers',
  params: { ordered_linkifier_ids: p.json(z.array(z.number().int())) },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => reorderLinkifiers(ctx, params.ordered_linkifier_ids));
    return {};
  },
});
