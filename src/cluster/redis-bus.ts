// The event bus across processes: every committed batch goes through one Redis channel, numbered
// by a counter in the same script, so every process sees every batch in the same order. A process
// hands the batches to its own queues as they arrive (its own included: one order for all). It
// keeps the last minute of them, so that queues handed over by a stopping process catch up on what
// was published while they moved, and it notices a gap in the numbers (its subscription was cut
// while Redis was away): its queues may have missed events, so they are dropped and their clients
// register again, as they do after any BAD_EVENT_QUEUE_ID. Notices (changes to what processes keep
// in memory) travel with the batches. A request's answer waits for Redis to take its batch, so the
// client's next request, whichever process it reaches, finds the events there and the notices applied.
import type { Clock } from '../services.js';
import type { Delivery, DeliveryListener, EventBus, Notice } from '../events/bus.js';
import type { QueueSnapshot } from '../events/queue.js';
import type { Redis } from './redis.js';

/** Queues a stopping process hands to another, with the last batch they had taken. */
export interface Handoff {
  /** Names the hand-off's state in Redis (offered, claimed, confirmed: see ClusterMember). */
  id: string;
  from: string;
  to: string;
  afterSeq: number;
  snapshots: QueueSnapshot[];
}

/** A queue's deletion asked of whichever process holds it. */
export interface QueueDeletion {
  queueId: string;
  userId: number;
}

type Message = { d: Delivery[]; n?: Notice[] } | { h: Handoff } | { x: QueueDeletion };

export interface NumberedBatch {
  seq: number;
  batch: Delivery[];
}

// KEYS: the counter, the channel, the number of the last batch of events. ARGV: the message, '1' for a batch.
const PUBLISH_SCRIPT = `
local seq = redis.call('INCR', KEYS[1])
if ARGV[2] == '1' then redis.call('SET', KEYS[3], seq) end
redis.call('PUBLISH', KEYS[2], seq .. '\\n' .. ARGV[1])
return seq`;

/** The longest an answer waits for Redis to take its batch (a slow Redis must not stall requests). */
const PUBLISH_WAIT_MS = 1000;

/** How long batches are kept for queues that are being handed over. */
const KEEP_SECONDS = 60;
const KEEP_MAX = 20_000;

export class RedisBus implements EventBus {
  private readonly listeners = new Set<DeliveryListener>();
  private readonly handoffListeners = new Set<(handoff: Handoff, seq: number) => void>();
  private readonly gapListeners = new Set<() => void>();
  private readonly deletionListeners = new Set<(deletion: QueueDeletion) => void>();
  private readonly noticeListeners = new Set<(notice: Notice) => void>();
  private readonly recent: (NumberedBatch & { at: number })[] = [];
  /** The number of the last message taken; batches are handed out in this order. */
  private lastSeq = 0;
  /** The number of the last message that carried events (others hand queues over, delete them, or only notify). */
  private lastBatchSeq = 0;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
  ) {
    // Sent once per connection, then called by its SHA1 (sent again after a SCRIPT FLUSH): every
    // committed action publishes, so the script's text is not repeated with each batch.
    publisher.defineCommand('confabPublish', { numberOfKeys: 3, lua: PUBLISH_SCRIPT });
  }

  private get channel(): string {
    return `${this.prefix}events`;
  }

  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) this.receive(text);
    });
    await this.subscriber.subscribe(this.channel);
    // Subscribed first: nothing published after this number can be missed.
    const [seq, batchSeq] = await this.publisher.mget(`${this.prefix}events:seq`, `${this.prefix}events:last-batch`);
    this.lastSeq = Number(seq ?? 0);
    this.lastBatchSeq = Number(batchSeq ?? 0);
    // Batches from before this process joined are not kept: queues cannot catch up from them.
    this.droppedThrough = this.lastBatchSeq;
  }

  /** The number of the last batch of events handed out (the same in every process once it has arrived). */
  get seq(): number {
    return this.lastBatchSeq;
  }

  publish(batch: Delivery[], notices: Notice[] = []): Promise<void> | void {
    const sent = this.send(notices.length > 0 ? { d: batch, n: notices } : { d: batch }, batch.length > 0);
    // While Redis is away the batch waits in the connection's queue, and answers do not wait for it.
    if (this.publisher.status !== 'ready') return;
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      sent.then(() => undefined, () => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, PUBLISH_WAIT_MS))),
    ]).finally(() => clearTimeout(timer));
  }

  handOff(handoff: Handoff): Promise<unknown> {
    return this.send({ h: handoff });
  }

  /** Fails at once while Redis is away: a request waits for the answer, and must not wait for Redis to return. */
  deleteQueue(deletion: QueueDeletion): Promise<unknown> {
    if (this.publisher.status !== 'ready') return Promise.reject(new Error(`Redis is unavailable (${this.publisher.status})`));
    return this.send({ x: deletion });
  }

  private send(message: Message, carriesEvents = false): Promise<unknown> {
    const keys = [`${this.prefix}events:seq`, this.channel, `${this.prefix}events:last-batch`];
    const publisher = this.publisher as unknown as { confabPublish(...args: string[]): Promise<number> };
    const sent = publisher.confabPublish(...keys, JSON.stringify(message), carriesEvents ? '1' : '0');
    sent.catch(this.onError);
    return sent;
  }

  subscribe(listener: DeliveryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onHandoff(listener: (handoff: Handoff, seq: number) => void): () => void {
    this.handoffListeners.add(listener);
    return () => this.handoffListeners.delete(listener);
  }

  onQueueDeletion(listener: (deletion: QueueDeletion) => void): () => void {
    this.deletionListeners.add(listener);
    return () => this.deletionListeners.delete(listener);
  }

  onNotice(listener: (notice: Notice) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  onGap(listener: () => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  /** Batches numbered after `afterSeq`, oldest first; null if some of them are no longer kept. */
  since(afterSeq: number): NumberedBatch[] | null {
    if (afterSeq < this.droppedThrough) return null;
    return this.recent.filter((entry) => entry.seq > afterSeq);
  }

  /** The number of the newest batch no longer kept. */
  private droppedThrough = 0;

  private receive(text: string): void {
    const newline = text.indexOf('\n');
    const seq = Number(text.slice(0, newline));
    if (seq <= this.lastSeq) return;
    if (seq > this.lastSeq + 1) for (const listener of this.gapListeners) listener();
    this.lastSeq = seq;
    let message: Message;
    try {
      message = JSON.parse(text.slice(newline + 1)) as Message;
    } catch (error) {
      return this.onError(error);
    }
    if ('h' in message) {
      for (const listener of this.handoffListeners) listener(message.h, seq);
      return;
    }
    if ('x' in message) {
      for (const listener of this.deletionListeners) listener(message.x);
      return;
    }
    for (const notice of message.n ?? []) for (const listener of this.noticeListeners) listener(notice);
    if (message.d.length === 0) return;
    this.lastBatchSeq = seq;
    this.keep(seq, message.d);
    for (const listener of this.listeners) listener(message.d);
  }

  private keep(seq: number, batch: Delivery[]): void {
    const now = this.clock.now();
    this.recent.push({ seq, batch, at: now });
    let drop = 0;
    while (drop < this.recent.length && (this.recent.length - drop > KEEP_MAX || now - this.recent[drop]!.at > KEEP_SECONDS)) drop++;
    if (drop > 0) this.droppedThrough = this.recent.splice(0, drop).at(-1)!.seq;
  }
}
