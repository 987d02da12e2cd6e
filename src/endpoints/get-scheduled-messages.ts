// GET /scheduled_messages: the user's messages that are still waiting to be sent, soonest first.
import { endpoint } from '../http/endpoint.js';
import { scheduledMessagesOf } from '../queries/scheduled-messages.js';

export default endpoint({
  method: 'GET',
  url: '/scheduled_messages',
  params: {},
  async handler({ user, services }) {
    return { scheduled_messages: await scheduledMessagesOf(services.db, user.id) };
  },
});
