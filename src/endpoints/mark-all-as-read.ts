// POST /mark_all_as_read (deprecated): marks every unread message read, newest first, in batches.
import { markAllAsRead } from '../actions/mark-read.js';
import { endpoint } from '../http/endpoint.js';

export default endpoint({
  method: 'POST',
  url: '/mark_all_as_read',
  params: {},
  async handler({ user, realm, services }) {
    return { complete: await markAllAsRead(services, user, realm) };
  },
});
