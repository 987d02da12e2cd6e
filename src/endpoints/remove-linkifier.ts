// DELETE /realm/filters/{filter_id}: remove a linkifier (administrators).
import { runAction } from '../actions/context.js';
import { removeLinkifier } from '../actions/linkifiers.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/realm/filters/:filter_id',
  params: { filter_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => removeLinkifier(ctx, params.filter_id));
    return {};
  },
});
