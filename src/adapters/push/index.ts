// Which push transport a server uses: the bouncer when pushBouncerUrl is configured, else the log.
import type { Services } from '../../services.js';
import { BouncerPushTransport } from './bouncer.js';
import { LogPushTransport } from './log.js';
import type { PushTransport } from './transport.js';

export * from './transport.js';
export { BouncerPushTransport } from './bouncer.js';
export { LogPushTransport } from './log.js';

const chosen = new WeakMap<Services, PushTransport>();

export function pushTransportFor(services: Services): PushTransport {
  let transport = chosen.get(services);
  if (!transport) {
    const url = services.config.pushBouncerUrl;
    transport = url ? new BouncerPushTransport(url) : new LogPushTransport(services.log);
    chosen.set(services, transport);
  }
  return transport;
}

/** Replaces the transport of a running server (tests, embedding). */
export function setPushTransport(services: Services, transport: PushTransport): void {
  chosen.set(services, transport);
}
