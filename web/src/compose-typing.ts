// Typing notifications both ways, with the timings register gives: the sender says `start` when
// typing begins and again every startedWait while it goes on, and `stop` after stoppedWait without a
// keystroke (or when the message is sent); the watcher shows who is typing until their `stop`, or
// until startedExpiry passes without a fresh `start`. The clock is passed in, so tests fake it.
import type { TypingPeriods } from './model.js';

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Whom a notification is about: a stream topic or a direct conversation (user ids, without me). */
export type TypingTarget = { kind: 'stream'; streamId: number; topic: string } | { kind: 'direct'; userIds: number[] };

/** The POST /typing parameters for a target. */
export function typingParams(op: 'start' | 'stop', target: TypingTarget): Record<string, string | number | number[]> {
  return target.kind === 'stream'
    ? { type: 'stream', op, stream_id: target.streamId, topic: target.topic }
    : { type: 'direct', op, to: target.userIds };
}

/** One key per conversation: topics without regard to case, direct conversations by their other people. */
export function conversationKey(target: TypingTarget, me: number): string {
  if (target.kind === 'stream') return `stream:${target.streamId}:${target.topic.toLowerCase()}`;
  return `dm:${[...new Set(target.userIds.filter((id) => id !== me))].sort((a, b) => a - b).join(',')}`;
}

export class TypingSender {
  private target: TypingTarget | undefined;
  private key = '';
  private lastStart = 0;
  private idle: unknown;

  constructor(
    private readonly periods: () => TypingPeriods,
    private readonly send: (op: 'start' | 'stop', target: TypingTarget) => void,
    private readonly clock: Clock = realClock,
  ) {}

  /** A keystroke in the message box while writing to `target`. */
  typed(target: TypingTarget): void {
    const key = conversationKey(target, NaN);
    const now = this.clock.now();
    if (this.target && key !== this.key) this.stop();
    if (!this.target || now - this.lastStart >= this.periods().startedWait) {
      this.target = target;
      this.key = key;
      this.lastStart = now;
      this.send('start', target);
    }
    this.clock.clearTimeout(this.idle);
    this.idle = this.clock.setTimeout(() => this.stop(), this.periods().stoppedWait);
  }

  /** Sent, cleared or idle: say `stop` once, if `start` was said. */
  stop(): void {
    this.clock.clearTimeout(this.idle);
    this.idle = undefined;
    const target = this.target;
    this.target = undefined;
    if (target) this.send('stop', target);
  }
}

export interface TypingEvent {
  op: string;
  message_type?: string;
  sender: { user_id: number };
  recipients?: { user_id: number }[];
  stream_id?: number;
  topic?: string;
}

/** Who is typing where, from `typing` events; each typist expires unless their `start` is repeated. */
export class TypingWatcher {
  private readonly typists = new Map<string, Map<number, unknown>>();
  private readonly targets = new Map<string, TypingTarget>();

  constructor(
    private readonly me: () => number,
    private readonly expiry: () => number,
    private readonly changed: () => void,
    private readonly clock: Clock = realClock,
  ) {}

  event(event: TypingEvent): void {
    const sender = event.sender.user_id;
    if (sender === this.me()) return;
    const target: TypingTarget =
      event.message_type === 'stream'
        ? { kind: 'stream', streamId: Number(event.stream_id), topic: String(event.topic ?? '') }
        : { kind: 'direct', userIds: (event.recipients ?? []).map((r) => r.user_id) };
    const key = conversationKey(target, this.me());
    const here = this.typists.get(key) ?? new Map<number, unknown>();
    this.clock.clearTimeout(here.get(sender));
    if (event.op === 'start') {
      here.set(sender, this.clock.setTimeout(() => this.forget(key, sender), this.expiry()));
      this.typists.set(key, here);
      this.targets.set(key, target);
    } else {
      here.delete(sender);
      if (here.size === 0) this.typists.delete(key);
    }
    this.changed();
  }

  /** A message from someone ends their typing there, as in Zulip. */
  forgetIn(target: TypingTarget, sender: number): void {
    this.forget(conversationKey(target, this.me()), sender);
  }

  private forget(key: string, sender: number): void {
    const here = this.typists.get(key);
    if (!here?.has(sender)) return;
    this.clock.clearTimeout(here.get(sender));
    here.delete(sender);
    if (here.size === 0) this.typists.delete(key);
    this.changed();
  }

  /** Every conversation someone is typing in, with who. */
  all(): { target: TypingTarget; userIds: number[] }[] {
    return [...this.typists].map(([key, here]) => ({ target: this.targets.get(key)!, userIds: [...here.keys()] }));
  }

  typing(target: TypingTarget): number[] {
    return [...(this.typists.get(conversationKey(target, this.me()))?.keys() ?? [])];
  }
}

/** "Mona is typing…", "Mona and Mark are typing…", "Several people are typing…". */
export function typingText(names: string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length <= 3) return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} are typing…`;
  return 'Several people are typing…';
}
