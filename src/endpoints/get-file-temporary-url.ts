// GET /user_uploads/{realm_id_str}/{filename}: a short-lived URL that serves the file without
// credentials (for clients that hand the download to something else, such as a mobile OS).
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { readableAttachment, temporaryToken } from '../http/serve-uploads.js';

export default endpoint({
  method: 'GET',
  url: '/user_uploads/:realm_id_str/*',
  params: { realm_id_str: p.pathString(), '*': p.pathString() },
  async handler({ params, user, services }) {
    const attachment = await readableAttachment(services, user, params.realm_id_str, params['*']);
    const name = attachment.path_id.split('/').pop()!;
    return { url: `/user_uploads/temporary/${temporaryToken(attachment, services.clock.now())}/${encodeURIComponent(name)}` };
  },
});
