// DELETE /users/me/apns_device_token: forget an iOS (APNs) device.
import { PushDeviceKind } from '../adapters/push/index.js';
import { removePushTokenEndpoint } from './remove-android-token.js';

export default removePushTokenEndpoint('/users/me/apns_device_token', PushDeviceKind.APNS);
