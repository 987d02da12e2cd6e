// The event loop's retries, with a fake transport and a sleep that only records its waits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type ZEvent } from '../src/api.js';
import { backoffMs, type QueueState, runEventLoop } from '../src/event-loop.js';

type Step = ZEvent[] | Error;

function harness(registers: (QueueState | Error)[], polls: Step[]) {
  const log: string[] = [];
  const transport = {
    async register() {
      const next = registers.shift();
      if (!next) throw new Error('no more registers');
      log.push('register');
      if (next instanceof Error) throw next;
      return { ...next };
    },
    async getEvents(queueId: string, lastEventId: number) {
      log.push(`poll ${queueId} ${lastEventId}`);
      const next = polls.shift();
      if (next instanceof Error) throw next;
      return next ?? [];
    },
  };
  const hooks = {
    onRegister: (s: QueueState) => log.push(`state ${s.queue_id}`),
    onEvents: (events: ZEvent[]) => log.push(`events ${events.map((e) => e.id).join(',')}`),
    onError: (_e: unknown, n: number) => log.push(`error ${n}`),
  };
  const options = {
    sleep: async (ms: number) => void log.push(`sleep ${ms}`),
    // Stops once every scripted answer is used.
    stopped: () => polls.length === 0 && registers.length === 0,
  };
  return { log, run: () => runEventLoop(transport, hooks, options) };
}

describe('event loop', () => {
  it('backs off from one second, doubling up to thirty', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map(backoffMs), [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('polls from the last event id it has seen and hands events over', async () => {
    const { log, run } = harness([{ queue_id: 'q1', last_event_id: -1 }], [[{ id: 0, type: 'heartbeat' }], [{ id: 1, type: 'message' }, { id: 2, type: 'message' }], []]);
    await run();
    assert.deepEqual(log, ['register', 'state q1', 'poll q1 -1', 'events 0', 'poll q1 0', 'events 1,2', 'poll q1 2']);
  });

  it('waits longer after each failed poll, and starts over after a success', async () => {
    const down = new ApiError('HTTP 502', 'NETWORK', 502);
    const { log, run } = harness([{ queue_id: 'q1', last_event_id: 4 }], [down, down, [{ id: 5, type: 'message' }], down]);
    await run();
    assert.deepEqual(log, ['register', 'state q1', 'poll q1 4', 'error 1', 'sleep 1000', 'poll q1 4', 'error 2', 'sleep 2000', 'poll q1 4', 'events 5', 'poll q1 5', 'error 1', 'sleep 1000']);
  });

  it('registers again at once when the server no longer knows the queue', async () => {
    const gone = new ApiError('Bad event queue ID: q1', 'BAD_EVENT_QUEUE_ID', 400);
    const { log, run } = harness(
      [
        { queue_id: 'q1', last_event_id: 3 },
        { queue_id: 'q2', last_event_id: 9 },
      ],
      [gone, [{ id: 10, type: 'message' }]],
    );
    await run();
    assert.deepEqual(log, ['register', 'state q1', 'poll q1 3', 'register', 'state q2', 'poll q2 9', 'events 10']);
  });

  it('retries a failed register with the same back-off', async () => {
    const { log, run } = harness([new Error('offline'), { queue_id: 'q1', last_event_id: 0 }], [[]]);
    await run();
    assert.deepEqual(log, ['register', 'error 1', 'sleep 1000', 'register', 'state q1', 'poll q1 0']);
  });
});
