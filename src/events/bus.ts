// Carries committed events to whoever holds event queues. In one process this is a
// direct call; several processes share events through a Redis-backed bus, together with notices:
// changes to what each process keeps in memory that no event tells of.
import type { PresenceEntry } from '../queries/presence.js';

/** An event and the ids of the users who should receive it. */
export interface Delivery {
  event: Record<string, unknown>;
  users: number[];
}

export type DeliveryListener = (batch: Delivery[]) => void;

/**
 * A committed change other processes apply to what they keep: a presence write (each process
 * keeps its realms' presence answers for the current second), a realm's linkifiers changed.
 */
export type Notice = { kind: 'presence'; realmId: number; entry: PresenceEntry } | { kind: 'linkifiers'; realmId: number };

export interface EventBus {
  /**
   * Hands the batch to every process's queues, and the notices to every other process. A promise
   * means the answer to the request waits for it: then every process has been sent the batch.
   */
  publish(batch: Delivery[], notices?: Notice[]): void | Promise<void>;
  subscribe(listener: DeliveryListener): () => void;
  /** Where batches are numbered (across processes): the number of the last one handed out. */
  readonly seq?: number;
}

/** One process: the action that made a notice has applied it already. */
export class LocalBus implements EventBus {
  private listeners = new Set<DeliveryListener>();

  publish(batch: Delivery[]): void {
    if (batch.length === 0) return;
    for (const listener of this.listeners) listener(batch);
  }

  subscribe(listener: DeliveryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
