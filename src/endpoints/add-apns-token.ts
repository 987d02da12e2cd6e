// POST /users/me/apns_device_token: register an iOS (APNs) device for push notifications.
import { addPushDevice } from '../actions/push-devices.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { PushDeviceKind } from '../adapters/push/index.js';

export default endpoint({
  method: 'POST',
  url: '/users/me/apns_device_token',
  params: {
    token: p.string(),
    // Required since feature level 223: the app the token belongs to.
    appid: p.string(),
  },
  async handler({ params, user, realm, services }) {
    await addPushDevice(services, user, realm, { kind: PushDeviceKind.APNS, token: params.token, iosAppId: params.appid });
    return {};
  },
});
