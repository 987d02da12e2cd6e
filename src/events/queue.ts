// One client's event queue: numbered events, acknowledgement by last_event_id, coalesced
// flag changes, and at most one waiting long-poll.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { ApiEvent, EventQueueHandle, QueuedEvent, QueueSpec } from './types.js';

/** What a saved queue holds across a restart. */
export interface QueueSnapshot {
  id: string;
  spec: QueueSpec;
  events: QueuedEvent[];
  coalesced: QueuedEvent[];
  nextId: number;
  newestPrunedId: number;
  lastAccess: number;
}

/**
 * On a queued copy, the shared event it was made from (a delivery shapes one event for many
 * queues); on a shared event, its JSON without the closing brace, so a copy's JSON is that plus
 * its id. Non-enumerable symbol properties: invisible to JSON, to spreads and to comparisons.
 */
const SOURCE = Symbol('source event');
const JSON_PREFIX = Symbol('JSON without the closing brace');
type Tagged = { [SOURCE]?: ApiEvent; [JSON_PREFIX]?: string };

/** JSON of an array of queued events, byte for byte JSON.stringify's, serializing each shared event once. */
export function eventsJson(events: readonly QueuedEvent[]): string {
  const parts = events.map((event) => {
    const source = (event as Tagged)[SOURCE] as (ApiEvent & Tagged) | undefined;
    // An event with an id of its own keeps that key's place when the queue renumbers it.
    if (source === undefined || 'id' in source) return JSON.stringify(event);
    let json = source[JSON_PREFIX];
    if (json === undefined) {
      json = JSON.stringify(source).slice(0, -1);
      Object.defineProperty(source, JSON_PREFIX, { value: json });
    }
    return `${json}${json.length > 1 ? ',' : ''}"id":${event.id}}`;
  });
  return `[${parts.join(',')}]`;
}

interface Waiter {
  /** The events to answer with, or null when the poll is to end unanswered (the server is stopping). */
  finish(events: QueuedEvent[] | null): void;
}

/** Flag changes merged into one pending event per (op, flag); removing `read` is never merged. */
function coalesceKey(event: ApiEvent): string | null {
  if (event.type !== 'update_message_flags' || event.all === true) return null;
  if (event.op === 'add' || (event.op === 'remove' && event.flag !== 'read')) return `${event.op}/${String(event.flag)}`;
  return null;
}

export class EventQueue implements EventQueueHandle {
  readonly id: string;
  readonly spec: QueueSpec;
  private events: QueuedEvent[] = [];
  /** Pending merged flag events, moved into `events` whenever the queue is read. */
  private coalesced = new Map<string, QueuedEvent>();
  private nextId = 0;
  private newestPrunedId = -1;
  private waiter: Waiter | null = null;
  /** UNIX seconds of the last poll that connected or finished. */
  lastAccess: number;

  constructor(spec: QueueSpec, now: number, id: string = randomUUID()) {
    this.id = id;
    this.spec = spec;
    this.lastAccess = now;
  }

  static restore(snapshot: QueueSnapshot): EventQueue {
    const queue = new EventQueue(snapshot.spec, snapshot.lastAccess, snapshot.id);
    queue.events = snapshot.events;
    for (const event of snapshot.coalesced) queue.coalesced.set(coalesceKey(event)!, event);
    queue.nextId = snapshot.nextId;
    queue.newestPrunedId = snapshot.newestPrunedId;
    return queue;
  }

  snapshot(): QueueSnapshot {
    return {
      id: this.id,
      spec: this.spec,
      events: this.events,
      coalesced: [...this.coalesced.values()],
      nextId: this.nextId,
      newestPrunedId: this.newestPrunedId,
      lastAccess: this.lastAccess,
    };
  }

  /** Adds an event (already shaped for this client) and wakes a waiting poll. */
  push(event: ApiEvent): void {
    const id = this.nextId++;
    const key = coalesceKey(event);
    const earlier = key === null ? undefined : this.coalesced.get(key);
    if (key !== null) {
      const messages = [...((earlier?.messages as number[] | undefined) ?? []), ...((event.messages as number[]) ?? [])];
      this.coalesced.set(key, { ...event, messages, id });
    } else {
      const queued = { ...event, id };
      Object.defineProperty(queued, SOURCE, { value: event });
      this.events.push(queued);
    }
    if (this.waiter) this.finishWaiter();
  }

  pending(): readonly QueuedEvent[] {
    this.flushCoalesced();
    return this.events;
  }

  /** Drops every event with id <= lastEventId, with the reference's checks. */
  acknowledge(lastEventId: number): void {
    if (lastEventId < this.newestPrunedId) {
      throw new ApiError(`An event newer than ${lastEventId} has already been pruned!`);
    }
    this.flushCoalesced();
    while (this.events.length > 0 && this.events[0]!.id <= lastEventId) {
      this.newestPrunedId = this.events.shift()!.id;
    }
    if (lastEventId !== this.newestPrunedId) throw new ApiError(`Event ${lastEventId} was not in this queue`);
  }

  get waiting(): boolean {
    return this.waiter !== null;
  }

  /**
   * Waits for the next event; `finish` receives the pending events. A newer poll replaces an
   * older one, which then returns what is pending (nothing). The function returned stops this
   * wait, and says whether it was still the one waiting.
   */
  wait(finish: (events: QueuedEvent[] | null) => void): () => boolean {
    if (this.waiter) this.finishWaiter();
    const waiter: Waiter = { finish };
    this.waiter = waiter;
    return () => {
      if (this.waiter !== waiter) return false;
      this.waiter = null;
      return true;
    };
  }

  /** Ends a waiting poll with whatever is pending (used for heartbeats and shutdown). */
  finishWaiter(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    waiter.finish([...this.pending()]);
  }

  /** Ends a waiting poll without an answer: the server is stopping, and the client is to come back. */
  abandonWaiter(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.finish(null);
  }

  private flushCoalesced(): void {
    if (this.coalesced.size === 0) return;
    this.events.push(...this.coalesced.values());
    this.coalesced.clear();
    this.events.sort((a, b) => a.id - b.id);
  }
}
