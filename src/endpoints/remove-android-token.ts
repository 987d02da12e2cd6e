// DELETE /users/me/android_gcm_reg_id: forget an Android (FCM) device.
// DELETE /users/me/apns_device_token is the same request for iOS devices, built from this definition.
import { removePushDevice } from '../actions/push-devices.js';
import { type Endpoint, endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { PushDeviceKind } from '../adapters/push/index.js';

export function removePushTokenEndpoint(url: string, kind: number): Endpoint {
  return endpoint({
    method: 'DELETE',
    url,
    params: {
      token: p.string(),
    },
    async handler({ params, user, realm, services }) {
      await removePushDevice(services, user, realm, kind, params.token);
      return {};
    },
  });
}

export default removePushTokenEndpoint('/users/me/android_gcm_reg_id', PushDeviceKind.FCM);
