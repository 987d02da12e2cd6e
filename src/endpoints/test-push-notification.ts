// POST /mobile_push/test_notification: a test notification to one device, or to all of the user's.
import { sendTestPushNotification } from '../actions/push-devices.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/mobile_push/test_notification',
  params: {
    token: p.string().optional(),
  },
  async handler({ params, user, realm, services }) {
    await sendTestPushNotification(services, user, realm, params.token ?? null);
    return {};
  },
});
