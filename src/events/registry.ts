// The process's event queues: takes deliveries from the bus, filters them per queue
// (event types, narrow), shapes them per client, and serves long-polls.
import type { UserRow } from '../db/schema.js';
import { BadEventQueueIdError } from '../errors.js';
import { normalizeNarrow } from '../lib/narrow/parse.js';
import { buildNarrowPredicate, type MessagePredicate } from '../lib/narrow/predicate.js';
import type { MessageFacts } from '../lib/narrow/types.js';
import { canSeeDeliveryEmail } from '../lib/user-format.js';
import { loadTopicState, resolveNarrow } from '../queries/narrow/resolve.js';
import { getRealmById } from '../queries/realms.js';
import { getUserById } from '../queries/users.js';
import type { Services } from '../services.js';
import type { Delivery } from './bus.js';
import { loadSnapshots, saveSnapshots } from './persistence.js';
import { Heartbeats } from './heartbeats.js';
import { EventQueue } from './queue.js';
import type { ApiEvent, EventQueues, PollRequest, QueuedEvent, QueueOwner, QueueSpec } from './types.js';

/**
 * What a message event carries for the registry only, under the `internal` key (removed before
 * any client sees the event): the raw Markdown and the facts the narrow filter and the
 * per-client avatar rule need.
 */
export interface MessageInternals {
  raw_content: string;
  recipient_type: number;
  has_link: boolean;
  has_image: boolean;
  has_attachment: boolean;
  /** The recipients' user_message flag bits (one event per distinct set of flags). */
  flag_bits: number;
  sender: Pick<UserRow, 'id' | 'is_bot' | 'settings' | 'avatar_source'>;
  /** On the copy of a public stream message for all_public_streams queues: who got it already. */
  all_public_streams?: { realm_id: number; recipients: number[] };
}

interface Entry {
  queue: EventQueue;
  viewer: Pick<UserRow, 'id' | 'role'>;
  /** null: the queue has no narrow. */
  matches: MessagePredicate | null;
}

const SWEEP_SECONDS = 60;

type QueueDeps = Pick<Services, 'config' | 'db' | 'clock' | 'bus'>;

/** Services with a queue registry that is not started yet (start() subscribes it to the bus). */
export function withQueues(base: Omit<Services, 'queues'>): Services {
  return { ...base, queues: new QueueRegistry(base) };
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

  constructor(private readonly services: QueueDeps) {
    this.heartbeats = new Heartbeats(services.config.heartbeatMinSeconds, services.config.heartbeatMaxSeconds);
  }

  /** Starts taking deliveries, reloads queues saved by the previous run, and sweeps idle queues. */
  async start(): Promise<void> {
    this.unsubscribe = this.services.bus.subscribe((batch) => this.deliver(batch));
    for (const snapshot of await loadSnapshots(this.services.db)) {
      const queue = EventQueue.restore(snapshot);
      const entry = await this.prepare(queue).catch(() => null);
      if (entry) this.add(entry);
    }
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_SECONDS * 1000);
    this.sweepTimer.unref();
    this.heartbeats.start();
  }

  /** Ends every waiting poll; from now on polls answer at once. */
  shutdown(): void {
    this.closing = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    this.heartbeats.stop();
    for (const { queue } of this.entries.values()) queue.finishWaiter();
  }

  /** Stops taking deliveries and saves every queue into the store. */
  async save(): Promise<void> {
    this.shutdown();
    this.unsubscribe?.();
    this.unsubscribe = null;
    await saveSnapshots(this.services.db, [...this.entries.values()].map((e) => e.queue.snapshot()));
  }

  async create(spec: QueueSpec, owner?: QueueOwner): Promise<EventQueue> {
    const queue = new EventQueue(spec, this.services.clock.now());
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

  /** How many polls are waiting now (tests check that disconnects leave none). */
  waitingPolls(): number {
    let count = 0;
    for (const { queue } of this.entries.values()) if (queue.waiting) count++;
    return count;
  }

  /** Acknowledges, then returns pending events at once or waits for one (or a heartbeat). */
  async poll(request: PollRequest): Promise<QueuedEvent[]> {
    const { queue } = this.owned(request.queueId, request.userId);
    queue.acknowledge(request.lastEventId);
    queue.lastAccess = this.services.clock.now();
    const ready = queue.pending();
    if (ready.length > 0 || request.dontBlock || this.closing) return [...ready];
    const events = await new Promise<QueuedEvent[]>((resolve) => {
      const stop = queue.wait((events) => {
        this.heartbeats.disarm(queue);
        resolve(events);
      });
      this.heartbeats.arm(queue);
      request.onDisconnect?.(() => {
        // A newer poll may have taken the queue over; its heartbeat stays.
        if (stop()) this.heartbeats.disarm(queue);
        resolve([]);
      });
    });
    queue.lastAccess = this.services.clock.now();
    return events;
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
    }
    return { queue, viewer: { id: viewer.id, role: viewer.role }, matches };
  }

  private add(entry: Entry): void {
    this.entries.set(entry.queue.id, entry);
    const { userId, realmId, allPublicStreams } = entry.queue.spec;
    addTo(this.byUser, userId, entry);
    if (allPublicStreams) addTo(this.allPublic, realmId, entry);
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
      const recipients = new Set(publicCopy.recipients);
      for (const entry of this.allPublic.get(publicCopy.realm_id) ?? []) {
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

  private deliver(batch: Delivery[]): void {
    if (this.closing) return;
    for (const delivery of batch) {
      // Most queues want the same shape of an event; each shape is built once per delivery.
      const shapes = new Map<string, ApiEvent[]>();
      for (const entry of this.targets(delivery)) {
        for (const shaped of shapeFor(entry, delivery.event as ApiEvent, shapes)) entry.queue.push(shaped);
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

function messageFacts(message: Record<string, unknown>, internal: MessageInternals): MessageFacts {
  return {
    id: message.id as number,
    senderId: message.sender_id as number,
    recipientId: message.recipient_id as number,
    recipientType: internal.recipient_type,
    topic: message.subject as string,
    content: internal.raw_content,
    flags: internal.flag_bits,
    hasLink: internal.has_link,
    hasImage: internal.has_image,
    hasAttachment: internal.has_attachment,
    hasReaction: Array.isArray(message.reactions) && message.reactions.length > 0,
  };
}

/** Shape keys by (raw, noAvatar, echo), so a key is not built for every queue. */
const MESSAGE_SHAPES = Array.from({ length: 8 }, (_, i) => `message/${Boolean(i & 4)}/${Boolean(i & 2)}/${Boolean(i & 1)}`);

function shapeMessage(entry: Entry, event: ApiEvent, shapes: Map<string, ApiEvent[]>): ApiEvent[] {
  const facts = event.internal as MessageInternals | undefined;
  const original = event.message as Record<string, unknown>;
  if (facts && entry.matches && !entry.matches(messageFacts(original, facts))) return [];
  const { spec } = entry.queue;
  const raw = Boolean(facts && !spec.applyMarkdown);
  const noAvatar = Boolean(
    facts && spec.clientGravatar && facts.sender.avatar_source === 'G' && canSeeDeliveryEmail(entry.viewer, facts.sender as UserRow),
  );
  const echo = event.sender_queue_id !== undefined && event.sender_queue_id === entry.queue.id && event.local_message_id !== undefined;
  const key = MESSAGE_SHAPES[(raw ? 4 : 0) | (noAvatar ? 2 : 0) | (echo ? 1 : 0)]!;
  const known = shapes.get(key);
  if (known) return known;
  const { internal: _internal, sender_queue_id: _senderQueueId, local_message_id: localId, ...rest } = event;
  const message = { ...original };
  if (raw) {
    message.content = facts!.raw_content;
    message.content_type = 'text/x-markdown';
  }
  if (noAvatar) message.avatar_url = null;
  const shaped: ApiEvent = { ...rest, message };
  if (echo) shaped.local_message_id = localId;
  shapes.set(key, [shaped]);
  return [shaped];
}

/** The event as this queue's client should see it: none, one, or (old deletion form) several. */
function shapeFor(entry: Entry, event: ApiEvent, shapes: Map<string, ApiEvent[]>): ApiEvent[] {
  const { spec } = entry.queue;
  if (spec.eventTypes !== null && !spec.eventTypes.includes(event.type)) return [];
  switch (event.type) {
    case 'message':
      return shapeMessage(entry, event, shapes);
    case 'delete_message': {
      if (spec.capabilities.bulk_message_deletion || !Array.isArray(event.message_ids)) return [event];
      const known = shapes.get('delete_message/single');
      if (known) return known;
      const { message_ids: ids, ...rest } = event;
      const split = (ids as number[]).map((id) => ({ ...rest, message_id: id }));
      shapes.set('delete_message/single', split);
      return split;
    }
    case 'realm_linkifiers':
      // Documented for template-aware clients only; the others' register state holds none.
      return spec.capabilities.linkifier_url_template ? [event] : [];
    case 'muted_topics':
      // The legacy form goes only to clients that did not ask for its successor.
      return spec.eventTypes?.includes('user_topic') ? [] : [event];
    case 'typing':
      if (event.message_type === 'stream' && !spec.capabilities.stream_typing_notifications) return [];
      return [event];
    case 'update_display_settings':
    case 'update_global_notifications':
      // The legacy forms of user_settings events, for clients that do not read user_settings.
      return spec.capabilities.user_settings_object ? [] : [event];
    default:
      return [event];
  }
}
