// DELETE /attachments/{attachment_id}: delete one of the user's own uploads.
import { checkRemoveAttachment } from '../actions/attachments.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/attachments/:attachment_id',
  params: { attachment_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkRemoveAttachment(ctx, params.attachment_id));
    return {};
  },
});
