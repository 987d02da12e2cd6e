// POST /users/me/android_gcm_reg_id: register an Android (FCM) device for push notifications.
import { addPushDevice } from '../actions/push-devices.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { PushDeviceKind } from '../adapters/push/index.js';

export default endpoint({
  method: 'POST',
  url: '/users/me/android_gcm_reg_id',
  params: {
    token: p.string(),
  },
  async handler({ params, user, realm, services }) {
    await addPushDevice(services, user, realm, { kind: PushDeviceKind.FCM, token: params.token, iosAppId: null });
    return {};
  },
});
