import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventQueue, eventsJson } from '../../src/events/queue.js';
import { ApiError } from '../../src/errors.js';
import { queueSpec } from '../support/queue-spec.js';

const spec = queueSpec({ id: 1, realm_id: 1 });

function queueWith(count: number): EventQueue {
  const queue = new EventQueue(spec, 0);
  for (let i = 0; i < count; i++) queue.push({ type: 'test', n: i });
  return queue;
}

function rejects(work: () => void, msg: string) {
  assert.throws(work, (error: unknown) => error instanceof ApiError && error.message === msg && error.code === 'BAD_REQUEST');
}

describe('an event queue', () => {
  it('has a random UUID id and numbers events from 0', () => {
    const queue = queueWith(3);
    assert.match(queue.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(queue.id, new EventQueue(spec, 0).id);
    assert.deepEqual(queue.pending().map((e) => [e.id, e.n]), [[0, 0], [1, 1], [2, 2]]);
  });

  it('prunes acknowledged events', () => {
    const queue = queueWith(4);
    queue.acknowledge(-1);
    assert.equal(queue.pending().length, 4);
    queue.acknowledge(1);
    assert.deepEqual(queue.pending().map((e) => e.id), [2, 3]);
    queue.acknowledge(1);
    assert.deepEqual(queue.pending().map((e) => e.id), [2, 3]);
  });

  it('refuses an acknowledgement older than what was pruned', () => {
    const queue = queueWith(4);
    queue.acknowledge(2);
    rejects(() => queue.acknowledge(1), 'An event newer than 1 has already been pruned!');
    rejects(() => new EventQueue(spec, 0).acknowledge(-2), 'An event newer than -2 has already been pruned!');
  });

  it('refuses an acknowledgement of an event it never held', () => {
    rejects(() => queueWith(2).acknowledge(5), 'Event 5 was not in this queue');
    rejects(() => new EventQueue(spec, 0).acknowledge(0), 'Event 0 was not in this queue');
  });

  it('merges flag changes per operation and flag, except removing read', () => {
    const queue = new EventQueue(spec, 0);
    const flags = (op: string, flag: string, messages: number[]) =>
      queue.push({ type: 'update_message_flags', op, operation: op, flag, messages, all: false });
    flags('add', 'read', [1]);
    flags('add', 'starred', [2]);
    queue.push({ type: 'other' });
    flags('add', 'read', [3, 4]);
    flags('remove', 'read', [5]);
    flags('remove', 'read', [6]);
    flags('remove', 'starred', [7]);
    flags('remove', 'starred', [8]);
    const summary = queue.pending().map((e) => [e.id, e.type, e.op, e.flag, e.messages]);
    assert.deepEqual(summary, [
      [1, 'update_message_flags', 'add', 'starred', [2]],
      [2, 'other', undefined, undefined, undefined],
      [3, 'update_message_flags', 'add', 'read', [1, 3, 4]],
      [4, 'update_message_flags', 'remove', 'read', [5]],
      [5, 'update_message_flags', 'remove', 'read', [6]],
      [7, 'update_message_flags', 'remove', 'starred', [7, 8]],
    ]);
  });

  it('does not merge into an event a client has already been handed', () => {
    const queue = new EventQueue(spec, 0);
    queue.push({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [1] });
    assert.equal(queue.pending().length, 1);
    queue.push({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [2] });
    assert.deepEqual(queue.pending().map((e) => [e.id, e.messages]), [[0, [1]], [1, [2]]]);
  });

  it('wakes a waiting poll when an event arrives, and a newer poll ends the older one', () => {
    const queue = new EventQueue(spec, 0);
    const got: unknown[][] = [];
    queue.wait((events) => got.push(events!.map((e) => e.id)));
    queue.wait((events) => got.push(events!.map((e) => e.id)));
    assert.deepEqual(got, [[]]);
    assert.equal(queue.waiting, true);
    queue.push({ type: 'x' });
    assert.deepEqual(got, [[], [0]]);
    assert.equal(queue.waiting, false);
  });

  it('restores from its snapshot with the same numbering', () => {
    const queue = queueWith(3);
    queue.acknowledge(0);
    queue.push({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [9] });
    const copy = EventQueue.restore(JSON.parse(JSON.stringify(queue.snapshot())));
    assert.equal(copy.id, queue.id);
    copy.push({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [10] });
    assert.deepEqual(copy.pending().map((e) => [e.id, e.messages ?? e.n]), [[1, 1], [2, 2], [4, [9, 10]]]);
    rejects(() => copy.acknowledge(-1), 'An event newer than -1 has already been pruned!');
  });

  it('writes its events as JSON.stringify would, however they were made', () => {
    const shared = { type: 'message', message: { id: 7, content: '<p>"hi"</p>' }, flags: [] };
    const withId = { type: 'custom', id: 'own', n: 1 };
    const first = new EventQueue(spec, 0);
    const second = new EventQueue(spec, 0);
    second.push({ type: 'heartbeat' });
    for (const queue of [first, second]) {
      queue.push(shared);
      queue.push(withId);
      queue.push({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [7] });
    }
    const restored = EventQueue.restore(JSON.parse(JSON.stringify(second.snapshot())));
    restored.push(shared);
    for (const queue of [first, second, restored]) {
      assert.equal(eventsJson(queue.pending()), JSON.stringify(queue.pending()));
    }
    assert.deepEqual(JSON.parse(eventsJson(second.pending())).map((e: { id: number }) => e.id), [0, 1, 2, 3]);
  });
});
