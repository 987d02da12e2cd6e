// DELETE /users/me/apns_device_token: forget an iOS (APNs) device.
import { removePushDevice } from '../actions/push-devices.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { PushDeviceKind } from '../lib/push/index.js';

export default endpoint({
  method: 'DELETE',
  url: '/users/me/apns_device_token',
  params: {
    token: p.string(),
  },
  async handler({ params, user, realm, services }) {
    await removePushDevice(services, user, realm, PushDeviceKind.APNS, params.token);
    return {};
  },
});
