// Every state change runs through runAction: one transaction, a pinned "now", and an
// event buffer that reaches the bus only after commit (and is dropped on rollback).
import type { RealmRow, Tx, UserRow } from '../db/schema.js';
import type { Delivery, Notice } from '../events/bus.js';
import type { Services } from '../services.js';

export class EventBuffer {
  readonly pending: Delivery[] = [];
  /** Work that must wait for the commit too (dropping caches the change made stale). */
  readonly afterCommitWork: Array<() => void> = [];
  /** The same, for the other processes of a cluster: sent with the events. */
  readonly notices: Notice[] = [];
  constructor(private readonly check: boolean) {}

  afterCommit(work: () => void): void {
    this.afterCommitWork.push(work);
  }

  /** Other processes apply the notice once this action has committed (this one does its own afterCommit work). */
  notify(notice: Notice): void {
    this.notices.push(notice);
  }

  send(event: Record<string, unknown>, users: Iterable<number>): void {
    const list = [...new Set(users)];
    if (list.length === 0) return;
    this.pending.push({ event: this.check ? JSON.parse(JSON.stringify(event)) : event, users: list });
  }

  /** An event addressed to no one in particular: the queue registry picks the queues that asked for it. */
  sendUnaddressed(event: Record<string, unknown>): void {
    this.pending.push({ event: this.check ? JSON.parse(JSON.stringify(event)) : event, users: [] });
  }
}

export interface ActionContext {
  tx: Tx;
  /** UNIX seconds, fixed for the whole action. */
  now: number;
  actor: UserRow;
  realm: RealmRow;
  events: EventBuffer;
  services: Services;
}

/** Like ActionContext, for changes made by the system itself (seeding, CLI, realm creation). */
export type SystemContext = Omit<ActionContext, 'actor' | 'realm'>;

export async function runSystemAction<T>(services: Services, work: (ctx: SystemContext) => Promise<T>): Promise<T> {
  const events = new EventBuffer(services.checkEvents ?? false);
  let result!: T;
  await services.store.transact(async (tx) => {
    events.pending.length = 0;
    events.afterCommitWork.length = 0;
    events.notices.length = 0;
    result = await work({ tx, now: Math.floor(services.clock.now()), events, services });
  });
  for (const afterCommit of events.afterCommitWork) afterCommit();
  if (events.pending.length > 0 || events.notices.length > 0) await services.bus.publish(events.pending, events.notices);
  return result;
}

export function runAction<T>(
  services: Services,
  actor: UserRow,
  realm: RealmRow,
  work: (ctx: ActionContext) => Promise<T>,
): Promise<T> {
  return runSystemAction(services, (ctx) => work({ ...ctx, actor, realm }));
}
