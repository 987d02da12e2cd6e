import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { Heartbeats } from '../../src/events/heartbeats.js';
import { EventQueue } from '../../src/events/queue.js';
import { queueSpec } from '../support/queue-spec.js';
import { waitUntil } from '../support/wait.js';

const spec = queueSpec({ id: 1, realm_id: 1 });

describe('heartbeats', () => {
  it('end a waiting poll once its time has passed, and only then', async () => {
    const heartbeats = new Heartbeats(0.05, 0.06);
    heartbeats.start();
    try {
      const queue = new EventQueue(spec, 0);
      const got: string[][] = [];
      const armedAt = performance.now();
      queue.wait((events) => got.push(events!.map((e) => e.type)));
      heartbeats.arm(queue);
      await waitUntil(() => got.length > 0);
      assert.ok(performance.now() - armedAt >= 50, 'not before the shortest wait');
      assert.deepEqual(got, [['heartbeat']]);
    } finally {
      heartbeats.stop();
    }
  });

  it('leave a disarmed queue and a queue nobody waits on alone', async () => {
    const heartbeats = new Heartbeats(0.01, 0.02);
    heartbeats.start();
    try {
      const disarmed = new EventQueue(spec, 0);
      disarmed.wait(() => assert.fail('a disarmed poll got a heartbeat'));
      heartbeats.arm(disarmed);
      heartbeats.disarm(disarmed);
      // Armed, then its poll went away without a word: no heartbeat piles up in the queue.
      const abandoned = new EventQueue(spec, 0);
      const stop = abandoned.wait(() => undefined);
      heartbeats.arm(abandoned);
      assert.equal(stop(), true);
      await sleep(60);
      assert.deepEqual(abandoned.pending(), []);
      assert.equal(disarmed.waiting, true);
    } finally {
      heartbeats.stop();
    }
  });
});
