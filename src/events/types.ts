// What an event queue is asked to hold, and the interface POST /register and GET /events use.
import type { RealmRow, UserRow } from '../db/schema.js';
import type { NarrowTerm } from '../lib/narrow/types.js';

export interface ClientCapabilities {
  notification_settings_null: boolean;
  bulk_message_deletion: boolean;
  user_avatar_url_field_optional: boolean;
  stream_typing_notifications: boolean;
  user_settings_object: boolean;
  linkifier_url_template: boolean;
}

/** Everything a queue needs to decide which events it takes and how it shapes them for its client. */
export interface QueueSpec {
  userId: number;
  realmId: number;
  /** null: every type. */
  eventTypes: string[] | null;
  /** Filters message events only. */
  narrow: NarrowTerm[];
  capabilities: ClientCapabilities;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  /** Idle time after which the queue is collected; the server's default when absent. */
  idleSeconds?: number;
}

export type ApiEvent = Record<string, unknown> & { type: string };

/** An event as a queue holds it: numbered, and already shaped for the queue's client. */
export type QueuedEvent = ApiEvent & { id: number };

export interface EventQueueHandle {
  readonly id: string;
  readonly spec: QueueSpec;
  /** Events held now, oldest first (POST /register folds these into the state it returns). */
  pending(): readonly QueuedEvent[];
}

/** The rows a queue's filters are built from. */
export interface QueueOwner {
  realm: RealmRow;
  user: UserRow;
}

/** What GET /events asks of the queues. */
export interface PollRequest {
  queueId: string;
  userId: number;
  lastEventId: number;
  dontBlock: boolean;
  /** Takes a listener to call if the client goes away while the poll waits; the poll then ends with nothing. */
  onDisconnect?: (listener: () => void) => void;
}

/** The process's event queues (src/events/registry.ts implements it). */
export interface EventQueues {
  /**
   * Creates a queue that receives matching events from this moment on. A caller that already
   * holds the owner's rows passes them, so they are not read again.
   */
  create(spec: QueueSpec, owner?: QueueOwner): Promise<EventQueueHandle>;
  get(queueId: string): EventQueueHandle | undefined;
  /**
   * Acknowledges through lastEventId, then returns newer events at once or after waiting for one;
   * null when the server is stopping and the poll is to end without an answer.
   */
  poll(request: PollRequest): Promise<QueuedEvent[] | null>;
  /** Removes the user's queue (BAD_EVENT_QUEUE_ID when it is not theirs or not there). */
  delete(queueId: string, userId: number): void;
}
