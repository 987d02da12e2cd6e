// DELETE /realm/playgrounds/{playground_id}: remove a code playground (administrators).
import { runAction } from '../actions/context.js';
import { removePlayground } from '../actions/playgrounds.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/realm/playgrounds/:playground_id',
  params: { playground_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => removePlayground(ctx, params.playground_id));
    return {};
  },
});
