// Push delivery through a push notification bouncer: the server hands devices and payloads to
// the bouncer's remotes API over HTTP, and the bouncer talks to APNs and FCM.
import { ApiError, InvalidRemotePushDeviceTokenError } from '../../errors.js';
import type { BasePayload, PushDevice, PushTransport } from './transport.js';

const TIMEOUT_MS = 10_000;

export class BouncerPushTransport implements PushTransport {
  readonly name = 'bouncer';
  private readonly base: string;

  constructor(url: string, private readonly fetchImpl: typeof fetch = fetch) {
    this.base = url.replace(/\/+$/, '');
  }

  private async post(path: string, body: string, contentType: string): Promise<void> {
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.base}/api/v1/remotes/${path}`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new ApiError('Network error while connecting to the push notification service.', { status: 502 });
    }
    if (res.ok) return;
    const answer = (await res.json().catch(() => ({}))) as { code?: unknown; msg?: unknown };
    if (answer.code === 'INVALID_REMOTE_PUSH_DEVICE_TOKEN') throw new InvalidRemotePushDeviceTokenError();
    throw new ApiError('Error received from the push notification service.', { status: 502 });
  }

  private postForm(path: string, device: PushDevice): Promise<void> {
    const form = new URLSearchParams({ user_id: String(device.userId), token: device.token, token_kind: String(device.kind) });
    if (device.iosAppId !== null) form.set('ios_app_id', device.iosAppId);
    return this.post(path, form.toString(), 'application/x-www-form-urlencoded');
  }

  register(device: PushDevice): Promise<void> {
    return this.postForm('push/register', device);
  }

  unregister(device: PushDevice): Promise<void> {
    return this.postForm('push/unregister', device);
  }

  /** The bouncer builds the per-platform payloads of the test notification from the base payload. */
  sendTest(device: PushDevice, base: BasePayload): Promise<void> {
    const body = { user_id: device.userId, token: device.token, token_kind: device.kind, base_payload: base };
    return this.post('push/test_notification', JSON.stringify(body), 'application/json');
  }
}
