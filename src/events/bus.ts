// Carries committed events to whoever holds event queues. In one process this is a
// direct call; several processes share events through a Redis-backed bus.

/** An event and the ids of the users who should receive it. */
export interface Delivery {
  event: Record<string, unknown>;
  users: number[];
}

export type DeliveryListener = (batch: Delivery[]) => void;

export interface EventBus {
  publish(batch: Delivery[]): void;
  subscribe(listener: DeliveryListener): () => void;
}

export class LocalBus implements EventBus {
  private listeners = new Set<DeliveryListener>();

  publish(batch: Delivery[]): void {
    for (const listener of this.listeners) listener(batch);
  }

  subscribe(listener: DeliveryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
