// The default push transport: notifications are written to the log, not delivered anywhere.
import { type BasePayload, type PushDevice, type PushTransport, testNotificationPayload } from './transport.js';

export interface PushLogger {
  info(object: Record<string, unknown>, message: string): void;
}

export interface LoggedPush {
  kind: 'register' | 'unregister' | 'test';
  device: PushDevice;
  payload?: Record<string, unknown>;
}

/** How many deliveries the transport remembers for inspection. */
const KEEP = 100;

export class LogPushTransport implements PushTransport {
  readonly name = 'log';
  /** The latest deliveries, oldest first. */
  readonly recent: LoggedPush[] = [];

  constructor(private readonly logger: PushLogger | undefined) {}

  private record(entry: LoggedPush): void {
    this.recent.push(entry);
    if (this.recent.length > KEEP) this.recent.shift();
    const { device, kind, payload } = entry;
    this.logger?.info({ push: kind, user_id: device.userId, token_kind: device.kind, payload }, `push ${kind} (log transport)`);
  }

  async register(device: PushDevice): Promise<void> {
    this.record({ kind: 'register', device });
  }

  async unregister(device: PushDevice): Promise<void> {
    this.record({ kind: 'unregister', device });
  }

  async sendTest(device: PushDevice, base: BasePayload, now: number): Promise<void> {
    this.record({ kind: 'test', device, payload: testNotificationPayload(device, base, now) });
  }
}
