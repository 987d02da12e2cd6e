// DELETE /invites/multiuse/{invite_id}: revoke a reusable invitation link.
import { runAction } from '../actions/context.js';
import { checkRevokeMultiuseInvite } from '../actions/invites.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/invites/multiuse/:invite_id',
  params: { invite_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkRevokeMultiuseInvite(ctx, params.invite_id));
    return {};
  },
});
