// What every push transport does, and the payloads of the test notification.
// Transports: the push bouncer over HTTP (bouncer.ts) and the log (log.ts, the default).

export const PushDeviceKind = { APNS: 1, FCM: 2 } as const;

export interface PushDevice {
  userId: number;
  /** 1 APNs (iOS), 2 FCM (Android). */
  kind: number;
  token: string;
  iosAppId: string | null;
}

/** Fields every notification carries, so one app can serve several servers and organizations. */
export interface BasePayload {
  server: string;
  realm_id: number;
  realm_name: string;
  realm_uri: string;
  realm_url: string;
  user_id: number;
}

export interface PushTransport {
  readonly name: string;
  /** Tells the receiver about a new device (a no-op where nothing needs telling). */
  register(device: PushDevice): Promise<void>;
  unregister(device: PushDevice): Promise<void>;
  /** Sends the test notification; throws InvalidRemotePushDeviceTokenError for a device the receiver does not know. */
  sendTest(device: PushDevice, base: BasePayload, now: number): Promise<void>;
}

export function basePayload(realm: { id: number; name: string; url: string }, userId: number): BasePayload {
  let server = '';
  try {
    server = new URL(realm.url).host;
  } catch {
    // A realm URL that does not parse leaves the server field empty.
  }
  return { server, realm_id: realm.id, realm_name: realm.name, realm_uri: realm.url, realm_url: realm.url, user_id: userId };
}

/** The test notification as delivered to one device: the APNs form or the FCM data form. */
export function testNotificationPayload(device: Pick<PushDevice, 'kind'>, base: BasePayload, now: number): Record<string, unknown> {
  const zulip = { ...base, event: 'test' };
  if (device.kind === PushDeviceKind.APNS) {
    return {
      alert: {
        title: 'Test notification',
        body: `This is a test notification from ${base.realm_name} (${base.realm_url}).`,
      },
      sound: 'default',
      custom: { zulip },
    };
  }
  return { ...zulip, time: Math.floor(now) };
}
