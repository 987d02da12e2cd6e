// DELETE /users/me/android_gcm_reg_id: forget an Android (FCM) device.
import { removePushDevice } from '../actions/push-devices.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { PushDeviceKind } from '../lib/push/index.js';

export default endpoint({
  method: 'DELETE',
  url: '/users/me/android_gcm_reg_id',
  params: {
    token: p.string(),
  },
  async handler({ params, user, realm, services }) {
    await removePushDevice(services, user, realm, PushDeviceKind.FCM, params.token);
    return {};
  },
});
