import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Heartbeats } from '../../src/events/heartbeats.js';
import { EventQueue } from '../../src/events/queue.js';
import { queueSpec } from '../support/queue-spec.js';

const spec = queueSpec({ id: 1, realm_id: 1 });

describe('heartbeats', () => {
  it('end a waiting poll once its time has passed, and only then', () => {
    let now = 1000;
    const heartbeats = new Heartbeats(0.05, 0.05, () => now);
    const queue = new EventQueue(spec, 0);
    const got: string[][] = [];
    queue.wait((events) => got.push(events!.map((e) => e.type)));
    heartbeats.arm(queue);
    now += 49;
    heartbeats.beat();
    assert.deepEqual(got, []);
    now += 1;
    heartbeats.beat();
    assert.deepEqual(got, [['heartbeat']]);
    // Once given, it is not given again.
    now += 1000;
    heartbeats.beat();
    assert.deepEqual(got, [['heartbeat']]);
  });

  it('owe each poll a heartbeat at a point within the range', () => {
    let now = 0;
    const heartbeats = new Heartbeats(0.01, 0.02, () => now);
    const queues = Array.from({ length: 20 }, () => new EventQueue(spec, 0));
    const ended = new Set<EventQueue>();
    for (const queue of queues) {
      queue.wait(() => ended.add(queue));
      heartbeats.arm(queue);
    }
    now = 9.99;
    heartbeats.beat();
    assert.equal(ended.size, 0);
    now = 20;
    heartbeats.beat();
    assert.equal(ended.size, 20);
  });

  it('leave a disarmed queue and a queue nobody waits on alone', () => {
    let now = 0;
    const heartbeats = new Heartbeats(0.01, 0.02, () => now);
    const disarmed = new EventQueue(spec, 0);
    disarmed.wait(() => assert.fail('a disarmed poll got a heartbeat'));
    heartbeats.arm(disarmed);
    heartbeats.disarm(disarmed);
    // Armed, then its poll went away without a word: no heartbeat piles up in the queue.
    const abandoned = new EventQueue(spec, 0);
    const stop = abandoned.wait(() => undefined);
    heartbeats.arm(abandoned);
    assert.equal(stop(), true);
    now = 60;
    heartbeats.beat();
    assert.deepEqual(abandoned.pending(), []);
    assert.equal(disarmed.waiting, true);
  });

  it('run from their own timer once started', async () => {
    const heartbeats = new Heartbeats(0.01, 0.02);
    heartbeats.start();
    try {
      const queue = new EventQueue(spec, 0);
      const got: string[][] = [];
      queue.wait((events) => got.push(events!.map((e) => e.type)));
      heartbeats.arm(queue);
      // However late a busy machine runs the timer, the heartbeat comes.
      await until(() => got.length > 0);
      assert.deepEqual(got, [['heartbeat']]);
    } finally {
      heartbeats.stop();
    }
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
