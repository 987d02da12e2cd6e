// One process of long-polling clients for the fan-out benchmark. The parent hands it queues
// over IPC; it polls each one and notes, per message id, how many clients hold the event and
// when the last one got it (wall-clock ms, comparable across processes).
// Several of these share the clients so one harness thread is not the bottleneck being measured.
import { setTimeout as sleep } from 'node:timers/promises';
import { LeanPoller } from './lean-poller.js';

export interface FanoutQueue {
  auth: string;
  queueId: string;
  lastEventId: number;
}

export type ToClient = { kind: 'start'; port: number; queues: FanoutQueue[] } | { kind: 'collect' } | { kind: 'count' } | { kind: 'stop' };
export type FromClient =
  | { kind: 'started' }
  | { kind: 'count'; answers: number }
  | { kind: 'receipts'; receipts: Array<[number, { count: number; last: number }]> }
  | { kind: 'stopped'; lastEventIds: number[] };

const wallNow = () => performance.timeOrigin + performance.now();

function send(message: FromClient) {
  process.send!(message);
}

const receipts = new Map<number, { count: number; last: number }>();
/** Polls answered so far. */
let answers = 0;
const stop = new AbortController();
const pollers: LeanPoller[] = [];
let loops: Promise<void>[] = [];
let queues: FanoutQueue[] = [];

async function pollLoop(port: number, queue: FanoutQueue) {
  const poller = new LeanPoller(port, queue.auth);
  pollers.push(poller);
  while (!stop.signal.aborted) {
    try {
      const answer = await poller.poll(queue.queueId, queue.lastEventId);
      if (answer.status !== 200) throw new Error(`poll answered ${answer.status}`);
      answers++;
      const now = wallNow();
      for (const event of answer.body.events ?? []) {
        queue.lastEventId = Math.max(queue.lastEventId, event.id);
        if (event.type !== 'message') continue;
        const entry = receipts.get(event.message.id) ?? { count: 0, last: 0 };
        entry.count++;
        entry.last = Math.max(entry.last, now);
        receipts.set(event.message.id, entry);
      }
      // Poll again only after every answer already read has been noted, as separate machines would.
      await new Promise((resolve) => setImmediate(resolve));
    } catch {
      if (!stop.signal.aborted) await sleep(100);
    }
  }
}

process.on('message', (message: ToClient) => {
  if (message.kind === 'start') {
    queues = message.queues;
    loops = queues.map((queue) => pollLoop(message.port, queue));
    send({ kind: 'started' });
  } else if (message.kind === 'collect') {
    send({ kind: 'receipts', receipts: [...receipts] });
  } else if (message.kind === 'count') {
    send({ kind: 'count', answers });
  } else {
    stop.abort();
    for (const poller of pollers) poller.close();
    void Promise.allSettled(loops).then(() => {
      send({ kind: 'stopped', lastEventIds: queues.map((q) => q.lastEventId) });
      process.disconnect();
    });
  }
});
