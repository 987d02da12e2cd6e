// Typing notifications with a fake clock: when `start` and `stop` go out, and how long a typist shows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Clock, conversationKey, TypingSender, type TypingTarget, TypingWatcher, typingParams, typingText } from '../src/compose-typing.js';

/** A clock that moves only when told, running the timers that fall due. */
function fakeClock() {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: Clock = {
    now: () => now,
    setTimeout(fn, ms) {
      const id = next++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
  };
  function advance(ms: number) {
    const end = now + ms;
    for (;;) {
      const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = end;
  }
  return { clock, advance };
}

const periods = { startedWait: 10_000, stoppedWait: 5000, startedExpiry: 15_000 };
const topic: TypingTarget = { kind: 'stream', streamId: 4, topic: 'lunch' };

describe('typing notifications', () => {
  it('says start once, again every startedWait while typing goes on, and stop after stoppedWait idle', () => {
    const { clock, advance } = fakeClock();
    const sent: string[] = [];
    const sender = new TypingSender(() => periods, (op) => sent.push(`${op}@${clock.now()}`), clock);
    sender.typed(topic);
    for (let i = 0; i < 12; i++) {
      advance(1000);
      sender.typed(topic);
    }
    assert.deepEqual(sent, ['start@0', 'start@10000']);
    advance(4999);
    assert.deepEqual(sent, ['start@0', 'start@10000']);
    advance(1);
    assert.deepEqual(sent, ['start@0', 'start@10000', 'stop@17000']);
    advance(60_000);
    assert.equal(sent.length, 3);
  });

  it('says stop on send (once), and stop then start when the recipient changes', () => {
    const { clock, advance } = fakeClock();
    const sent: string[] = [];
    const sender = new TypingSender(() => periods, (op, target) => sent.push(`${op} ${conversationKey(target, 1)}`), clock);
    sender.typed(topic);
    sender.typed({ ...topic, topic: 'dinner' });
    sender.stop();
    sender.stop();
    advance(60_000);
    assert.deepEqual(sent, ['start stream:4:lunch', 'stop stream:4:lunch', 'start stream:4:dinner', 'stop stream:4:dinner']);
  });

  it('sends POST /typing parameters for a topic or for people', () => {
    assert.deepEqual(typingParams('start', topic), { type: 'stream', op: 'start', stream_id: 4, topic: 'lunch' });
    assert.deepEqual(typingParams('stop', { kind: 'direct', userIds: [3, 2] }), { type: 'direct', op: 'stop', to: [3, 2] });
  });

  it('shows a typist until their stop, or until startedExpiry without a fresh start', () => {
    const { clock, advance } = fakeClock();
    let changes = 0;
    const watcher = new TypingWatcher(() => 1, () => periods.startedExpiry, () => changes++, clock);
    const dm = (op: string, sender: number) => ({ op, message_type: 'direct', sender: { user_id: sender }, recipients: [{ user_id: 1 }, { user_id: sender }] });
    watcher.event(dm('start', 2));
    // The conversation as my compose box names it (the other person, without me) matches.
    assert.deepEqual(watcher.typing({ kind: 'direct', userIds: [2] }), [2]);
    advance(14_000);
    watcher.event(dm('start', 2));
    advance(14_000);
    assert.deepEqual(watcher.typing({ kind: 'direct', userIds: [2] }), [2]);
    advance(1000);
    assert.deepEqual(watcher.typing({ kind: 'direct', userIds: [2] }), []);
    watcher.event({ op: 'start', message_type: 'stream', sender: { user_id: 3 }, stream_id: 4, topic: 'Lunch' });
    assert.deepEqual(watcher.typing(topic), [3]);
    assert.deepEqual(watcher.all(), [{ target: { kind: 'stream', streamId: 4, topic: 'Lunch' }, userIds: [3] }]);
    watcher.event({ op: 'stop', message_type: 'stream', sender: { user_id: 3 }, stream_id: 4, topic: 'lunch' });
    assert.deepEqual(watcher.typing(topic), []);
    // My own typing (from another tab) is not shown; a message from a typist ends their typing.
    watcher.event({ op: 'start', message_type: 'stream', sender: { user_id: 1 }, stream_id: 4, topic: 'lunch' });
    assert.deepEqual(watcher.typing(topic), []);
    watcher.event({ op: 'start', message_type: 'stream', sender: { user_id: 5 }, stream_id: 4, topic: 'lunch' });
    watcher.forgetIn(topic, 5);
    assert.deepEqual(watcher.all(), []);
    assert.equal(changes, 7);
  });

  it('names the typists', () => {
    assert.equal(typingText([]), '');
    assert.equal(typingText(['Mona']), 'Mona is typing…');
    assert.equal(typingText(['Mona', 'Mark', 'Milo']), 'Mona, Mark and Milo are typing…');
    assert.equal(typingText(['a', 'b', 'c', 'd']), 'Several people are typing…');
  });
});
