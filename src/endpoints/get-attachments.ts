// GET /attachments: the user's uploads, the messages linking each, and the organization's used space.
import { endpoint } from '../http/endpoint.js';
import { uploadSpaceUsed, userAttachments } from '../queries/attachments.js';

export default endpoint({
  method: 'GET',
  url: '/attachments',
  params: {},
  async handler({ user, realm, services }) {
    return { attachments: await userAttachments(services.db, user.id), upload_space_used: await uploadSpaceUsed(services.db, realm.id) };
  },
});
