// GET /streams/{stream_id}/email_address: the address that posts to a stream by email. Confab
// runs no incoming-email gateway, so, like a reference server without one, it answers an empty
// address, after the same access check.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { accessStreamById } from '../queries/stream-access.js';

export default endpoint({
  method: 'GET',
  url: '/streams/:stream_id/email_address',
  params: {
    stream_id: p.pathInt(),
  },
  async handler({ params, user, services }) {
    await accessStreamById(services.db, user, params.stream_id);
    return { email: '' };
  },
});
