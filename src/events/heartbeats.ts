// Heartbeats for waiting polls, all from one timer: a poll that has waited its time (a random
// point in the configured range, so clients do not all come back at once) gets a heartbeat event.
// One timer instead of one per poll keeps a poll's own cost down when thousands are waiting.
import type { EventQueue } from './queue.js';

export class Heartbeats {
  /** Waiting queues and when each is owed a heartbeat (ms on the `now` clock). */
  private readonly due = new Map<EventQueue, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly minSeconds: number,
    private readonly maxSeconds: number,
    /** Milliseconds, monotonic (tests give their own clock and call beat themselves). */
    private readonly now: () => number = () => performance.now(),
  ) {}

  start(): void {
    // Checked often enough that a heartbeat comes at most a quarter of the range late.
    const tickMs = Math.min(1000, Math.max(5, ((this.maxSeconds - this.minSeconds) * 1000) / 4));
    this.timer = setInterval(() => this.beat(), tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.due.clear();
  }

  /** The queue's poll is waiting from now on. */
  arm(queue: EventQueue): void {
    const seconds = this.minSeconds + Math.random() * (this.maxSeconds - this.minSeconds);
    // A waiting poll is work in progress: the timer keeps the process alive while there is one.
    if (this.due.size === 0) this.timer?.ref();
    this.due.set(queue, this.now() + seconds * 1000);
  }

  /** The queue's poll has ended. */
  disarm(queue: EventQueue): void {
    if (this.due.delete(queue) && this.due.size === 0) this.timer?.unref();
  }

  /** Gives a heartbeat to every waiting poll whose time has come (the timer calls it). */
  beat(): void {
    const now = this.now();
    for (const [queue, at] of this.due) {
      if (now < at) continue;
      this.disarm(queue);
      // The heartbeat ends the waiting poll with it.
      if (queue.waiting) queue.push({ type: 'heartbeat' });
    }
  }
}
