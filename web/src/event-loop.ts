// One event queue per tab: register, long-poll, back off on errors, and register again when the
// server has forgotten the queue (BAD_EVENT_QUEUE_ID), handing the fresh state over as if new.
import { ApiError, type ZEvent } from './api.js';

export interface QueueState {
  queue_id: string;
  last_event_id: number;
  [key: string]: unknown;
}

export interface Transport {
  register(): Promise<QueueState>;
  getEvents(queueId: string, lastEventId: number): Promise<ZEvent[]>;
}

export interface LoopHooks {
  onRegister(state: QueueState): void;
  onEvents(events: ZEvent[]): void;
  /** Called with each failure before the loop waits; for a status line. */
  onError?(error: unknown, failures: number): void;
}

export interface LoopOptions {
  sleep?: (ms: number) => Promise<void>;
  /** The loop ends when this says so (checked between requests). */
  stopped?: () => boolean;
}

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

/** Wait before retry number n (1, 2, ...): doubling from a second, at most half a minute. */
export function backoffMs(failures: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, failures - 1));
}

function isBadQueue(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'BAD_EVENT_QUEUE_ID';
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runEventLoop(transport: Transport, hooks: LoopHooks, options: LoopOptions = {}): Promise<void> {
  const sleep = options.sleep ?? realSleep;
  const stopped = options.stopped ?? (() => false);
  let failures = 0;
  let queue: QueueState | undefined;

  const failed = async (error: unknown) => {
    failures += 1;
    hooks.onError?.(error, failures);
    await sleep(backoffMs(failures));
  };

  while (!stopped()) {
    if (!queue) {
      try {
        queue = await transport.register();
        failures = 0;
        hooks.onRegister(queue);
      } catch (error) {
        await failed(error);
      }
      continue;
    }
    try {
      const events = await transport.getEvents(queue.queue_id, queue.last_event_id);
      failures = 0;
      if (events.length === 0) continue;
      queue.last_event_id = Math.max(queue.last_event_id, ...events.map((e) => e.id));
      hooks.onEvents(events);
    } catch (error) {
      if (isBadQueue(error)) {
        // The queue is gone (expired while the tab slept, or the server restarted): start over.
        queue = undefined;
        continue;
      }
      await failed(error);
    }
  }
}
