// The process's event queues: takes deliveries from the bus, hands each to the queues it is for
// (filtered and shaped per client in shape.ts), and serves long-polls.
import { randomUUID } from 'node:crypto';
import { classifyStoreError } from '../db/store-errors.js';
import { BadEventQueueIdError } from '../errors.js';
import { MAX_QUEUES_PER_USER } from '../lib/limits.js';
import { normalizeNarrow } from '../lib/narrow/parse.js';
import { buildNarrowPredicate, type MessagePredicate } from '../lib/narrow/predicate.js';
import type { ResolvedNarrow } from '../lib/narrow/types.js';
import { loadTopicState, resolveNarrow } from '../queries/narrow/resolve.js';
import { getRealmById } from '../queries/realms.js';
import { getUserById } from '../queries/users.js';
import type { Services } from '../services.js';
import type { Delivery } from './bus.js';
import { loadSnapshots, saveSnapshots } from './persistence.js';
import { Heartbeats } from './heartbeats.js';
import { EventQueue, type QueueSnapshot } from './queue.js';
import { type MessageInternals, type ShapeTarget, shapeFor } from './shape.js';
import type { ApiEvent, EventQueues, PollRequest, QueuedEvent, QueueOwner, QueueSpec } from './types.js';

interface Entry extends ShapeTarget {
  /** A narrow that reads muted streams and topic policies, kept so the filter can follow their changes. */
  topicNarrow?: ResolvedNarrow;
  /** Counts reloads of that state, so only the newest one is applied. */
  topicStateLoads?: number;
}

/** Whether an event changes the muted streams or topic policies a narrow may read. */
function changesTopicState(event: Record<string, unknown>): boolean {
  if (event.type === 'user_topic') return true;
  return event.type === 'subscription' && event.op === 'update' && (event.property === 'is_muted' || event.property === 'in_home_view');
}

const SWEEP_SECONDS = 60;

type QueueDeps = Pick<Services, 'config' | 'db' | 'clock' | 'bus' | 'log' | 'cluster'>;

/** Services with a queue registry that is not started yet (start() subscribes it to the bus). */
export function withQueues(base: Omit<Services, 'queues'>): Services {
  // The registry holds the services object itself, so it sees the logger the server sets later.
  const services = { ...base } as Services;
  services.queues = new QueueRegistry(services);
  return services;
}

export class QueueRegistry implements EventQueues {
  private readonly entries = new Map<string, Entry>();
  /** The same entries by user, so a delivery touches only its recipients' queues. */
  private readonly byUser = new Map<number, Set<Entry>>();
  /** Entries of queues registered with all_public_streams, by realm. */
  private readonly allPublic = new Map<number, Set<Entry>>();
  private unsubscribe: (() => void) | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private readonly heartbeats: Heartbeats;
  private closing = false;
  private readonly reloads = new Set<Promise<void>>();

  constructor(private readonly services: QueueDeps) {
    this.heartbeats = new Heartbeats(services.config.heartbeatMinSeconds, services.config.heartbeatMaxSeconds);
  }

  /**
   * Starts taking deliveries, reloads queues saved by the previous run, and sweeps idle queues.
   * Returns the ids of the queues reloaded. In a cluster a saved queue is taken only if no batch
   * of events has been published since it was saved (it would have missed them): otherwise its
   * client gets BAD_EVENT_QUEUE_ID and registers again.
   */
  async start(): Promise<string[]> {
    this.unsubscribe = this.services.bus.subscribe((batch) => this.deliver(batch));
    const { bus } = this.services;
    const ids = await this.restore(await loadSnapshots(this.services.db), (saved) => saved.busSeq === undefined || saved.busSeq === bus.seq);
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_SECONDS * 1000);
    this.sweepTimer.unref();
    this.heartbeats.start();
    return ids;
  }

  /**
   * Ends every waiting poll without an answer (its connection closes, and the client comes back
   * to the restarted server); from now on a poll with nothing to return ends the same way.
   * Deliveries go on until save().
   */
  shutdown(): void {
    this.closing = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    this.heartbeats.stop();
    for (const { queue } of this.entries.values()) queue.abandonWaiter();
  }

  /** Whether this process has begun stopping (shutdown). */
  get isClosing(): boolean {
    return this.closing;
  }

  /** Stops taking deliveries and saves every queue into the store. */
  async save(): Promise<void> {
    this.shutdown();
    await this.settle();
    this.unsubscribe?.();
    this.unsubscribe = null;
    await saveSnapshots(this.services.db, [...this.entries.values()].map((e) => e.queue.snapshot()), Boolean(this.services.cluster), this.services.bus.seq);
  }

  /**
   * Takes in saved or handed-over queues (those whose user or organization is gone are dropped)
   * and returns the ids of those taken. Fails, taking none, when the store cannot be read: the
   * queues are not known to be gone, and dropping them would send their clients to register again.
   */
  async restore<T extends QueueSnapshot>(snapshots: readonly T[], take: (snapshot: T) => boolean = () => true): Promise<string[]> {
    const entries = await Promise.all(
      snapshots.map((snapshot) =>
        this.prepare(EventQueue.restore(snapshot)).catch((error: unknown) => {
          if (classifyStoreError(error)) throw error;
          return null;
        }),
      ),
    );
    const taken: string[] = [];
    for (const [i, entry] of entries.entries()) {
      // Decided as the queue is added: from here on it takes every delivery.
      if (!entry || !take(snapshots[i]!)) continue;
      this.add(entry);
      taken.push(entry.queue.id);
    }
    return taken;
  }

  /** Hands batches to the named queues only (queues that missed them while moving between processes). */
  deliverTo(queueIds: readonly string[], batches: readonly Delivery[][]): void {
    const only = new Set(queueIds);
    for (const batch of batches) this.deliver(batch, only);
  }

  /** Every queue's snapshot, and the queues gone from here (a stopping process hands them on). */
  detachAll(): QueueSnapshot[] {
    const snapshots = [...this.entries.values()].map((entry) => entry.queue.snapshot());
    this.dropAll();
    return snapshots;
  }

  /** Drops every queue; their clients get BAD_EVENT_QUEUE_ID and register again. */
  dropAll(): void {
    for (const id of [...this.entries.keys()]) this.drop(id);
  }

  drop(queueId: string): void {
    this.entries.get(queueId)?.queue.finishWaiter();
    this.remove(queueId);
  }

  async create(spec: QueueSpec, owner?: QueueOwner): Promise<EventQueue> {
    const queue = new EventQueue(spec, this.services.clock.now(), this.services.cluster?.newQueueId(randomUUID()));
    const entry = await this.prepare(queue, owner);
    this.add(entry);
    return queue;
  }

  get(queueId: string): EventQueue | undefined {
    return this.entries.get(queueId)?.queue;
  }

  /** The queue, if it exists and belongs to the user; otherwise the reference's error. */
  private owned(queueId: string, userId: number): Entry {
    const entry = this.entries.get(queueId);
    if (!entry || entry.queue.spec.userId !== userId) throw new BadEventQueueIdError(queueId);
    return entry;
  }

  delete(queueId: string, userId: number): void {
    const { queue } = this.owned(queueId, userId);
    queue.finishWaiter();
    this.remove(queueId);
  }

  /** How many event queues this process holds. */
  size(): number {
    return this.entries.size;
  }

  /** How many polls are waiting now (tests check that disconnects leave none). */
  waitingPolls(): number {
    let count = 0;
    for (const { queue } of this.entries.values()) if (queue.waiting) count++;
    return count;
  }

  /** Acknowledges, then returns pending events at once or waits for one (or a heartbeat); null: see wait. */
  async poll(request: PollRequest): Promise<QueuedEvent[] | null> {
    return this.take(request) ?? new Promise((resolve) => this.wait(request, resolve));
  }

  /**
   * The first half of a poll: acknowledges, then returns the events to answer with now, or null
   * when the poll is to wait for them (wait). Throws the reference's errors, changing nothing.
   */
  take(request: Omit<PollRequest, 'onDisconnect'>): QueuedEvent[] | null {
    const { queue } = this.owned(request.queueId, request.userId);
    queue.acknowledge(request.lastEventId);
    queue.lastAccess = this.services.clock.now();
    const ready = queue.pending();
    return ready.length > 0 || request.dontBlock ? [...ready] : null;
  }

  /**
   * The second half, after take returned null: calls `done` once, with the events when one
   * arrives (or a heartbeat), with nothing when the client goes away, or with null when the
   * server is stopping: the poll is then to end without an answer.
   */
  wait(request: PollRequest, done: (events: QueuedEvent[] | null) => void): void {
    if (this.closing) return done(null);
    const { queue } = this.owned(request.queueId, request.userId);
    let finished = false;
    const finish = (events: QueuedEvent[] | null) => {
      if (finished) return;
      finished = true;
      queue.lastAccess = this.services.clock.now();
      done(events);
    };
    const stop = queue.wait((events) => {
      this.heartbeats.disarm(queue);
      finish(events);
    });
    this.heartbeats.arm(queue);
    request.onDisconnect?.(() => {
      // A newer poll may have taken the queue over; its heartbeat stays.
      if (stop()) this.heartbeats.disarm(queue);
      finish([]);
    });
  }

  /** Collects queues with no poll connected for longer than their idle time. */
  sweep(): void {
    const now = this.services.clock.now();
    for (const [id, { queue }] of this.entries) {
      const idle = queue.spec.idleSeconds ?? this.services.config.queueIdleSeconds;
      if (!queue.waiting && now - queue.lastAccess > idle) this.remove(id);
    }
  }

  private async prepare(queue: EventQueue, owner?: QueueOwner): Promise<Entry> {
    const { spec } = queue;
    const [realm, viewer] = owner
      ? [owner.realm, owner.user]
      : await Promise.all([getRealmById(this.services.db, spec.realmId), getUserById(this.services.db, spec.realmId, spec.userId)]);
    if (!realm || !viewer) throw new Error(`queue ${queue.id}: unknown realm or user`);
    let matches: MessagePredicate | null = null;
    if (spec.narrow.length > 0) {
      const narrow = await resolveNarrow(this.services.db, realm, viewer, normalizeNarrow(spec.narrow));
      const state = narrow.needsTopicState ? await loadTopicState(this.services.db, viewer.id) : undefined;
      matches = buildNarrowPredicate(narrow, state);
      if (narrow.needsTopicState) return { queue, viewer: { id: viewer.id, role: viewer.role }, matches, topicNarrow: narrow };
    }
    return { queue, viewer: { id: viewer.id, role: viewer.role }, matches };
  }

  private track(work: Promise<void>): void {
    this.reloads.add(work);
    void work.finally(() => this.reloads.delete(work));
  }

  /** Waits for filters being rebuilt after topic-state changes (before saving, and in tests). */
  async settle(): Promise<void> {
    while (this.reloads.size > 0) await Promise.all(this.reloads);
  }

  /** Rebuilds a narrow's filter from the user's current muted streams and topic policies. */
  private async reloadTopicState(entry: Entry): Promise<void> {
    const load = (entry.topicStateLoads ?? 0) + 1;
    entry.topicStateLoads = load;
    try {
      const state = await loadTopicState(this.services.db, entry.viewer.id);
      if (entry.topicStateLoads === load) entry.matches = buildNarrowPredicate(entry.topicNarrow!, state);
    } catch (error) {
      this.services.log?.error({ err: error, queue: entry.queue.id }, 'reloading a narrow\'s topic state failed');
    }
  }

  private add(entry: Entry): void {
    this.entries.set(entry.queue.id, entry);
    const { userId, realmId, allPublicStreams } = entry.queue.spec;
    addTo(this.byUser, userId, entry);
    if (allPublicStreams) addTo(this.allPublic, realmId, entry);
    this.evictPast(userId, entry);
  }

  /**
   * Every delivery to a user costs one push per queue they hold, so a client that registers in a
   * loop must not pile queues up: past the limit the least recently used other queue goes (its
   * client gets the usual BAD_EVENT_QUEUE_ID and registers again).
   */
  private evictPast(userId: number, keep: Entry): void {
    const owned = this.byUser.get(userId);
    while (owned && owned.size > MAX_QUEUES_PER_USER) {
      let oldest: Entry | undefined;
      for (const entry of owned) {
        if (entry !== keep && (!oldest || entry.queue.lastAccess < oldest.queue.lastAccess)) oldest = entry;
      }
      if (!oldest) return;
      oldest.queue.finishWaiter();
      this.remove(oldest.queue.id);
    }
  }

  private remove(queueId: string): void {
    const entry = this.entries.get(queueId);
    if (!entry) return;
    this.entries.delete(queueId);
    const { userId, realmId } = entry.queue.spec;
    removeFrom(this.byUser, userId, entry);
    removeFrom(this.allPublic, realmId, entry);
  }

  /** The queues a delivery goes to: its recipients', or for all_public_streams copies, those queues. */
  private targets(delivery: Delivery): Entry[] {
    const out: Entry[] = [];
    const publicCopy = (delivery.event.internal as MessageInternals | undefined)?.all_public_streams;
    if (publicCopy) {
      const entries = this.allPublic.get(publicCopy.realm_id);
      if (!entries) return out;
      const recipients = new Set(publicCopy.recipients);
      for (const entry of entries) {
        if (!recipients.has(entry.queue.spec.userId)) out.push(entry);
      }
      return out;
    }
    for (const userId of delivery.users) {
      const entries = this.byUser.get(userId);
      if (entries) for (const entry of entries) out.push(entry);
    }
    return out;
  }

  private deliver(batch: Delivery[], only?: ReadonlySet<string>): void {
    for (const delivery of batch) {
      // Most queues want the same shape of an event; each shape is built once per delivery.
      const shapes = new Map<string, ApiEvent[]>();
      const reload = changesTopicState(delivery.event);
      for (const entry of this.targets(delivery)) {
        if (only && !only.has(entry.queue.id)) continue;
        for (const shaped of shapeFor(entry, delivery.event as ApiEvent, shapes)) entry.queue.push(shaped);
        if (reload && entry.topicNarrow) this.track(this.reloadTopicState(entry));
      }
    }
  }
}

function addTo<K>(index: Map<K, Set<Entry>>, key: K, entry: Entry): void {
  const set = index.get(key);
  if (set) set.add(entry);
  else index.set(key, new Set([entry]));
}

function removeFrom<K>(index: Map<K, Set<Entry>>, key: K, entry: Entry): void {
  const set = index.get(key);
  if (!set?.delete(entry)) return;
  if (set.size === 0) index.delete(key);
}
