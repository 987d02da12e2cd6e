import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TestClock } from '../../../test/support/clock.js';
import { MemoryRateLimitStore } from './memory.js';

const rule = { requests: 3, seconds: 60 };

describe('MemoryRateLimitStore', () => {
  it('accepts a burst of the rule’s size, then one request per seconds/requests', () => {
    const clock = new TestClock(1000);
    const store = new MemoryRateLimitStore(clock);
    assert.deepEqual(store.hit('k', rule), { limited: false, retryAfter: 0, remaining: 2, resetAfter: 20 });
    assert.deepEqual(store.hit('k', rule), { limited: false, retryAfter: 0, remaining: 1, resetAfter: 40 });
    assert.deepEqual(store.hit('k', rule), { limited: false, retryAfter: 0, remaining: 0, resetAfter: 60 });
    assert.deepEqual(store.hit('k', rule), { limited: true, retryAfter: 20, remaining: 0, resetAfter: 60 });
    // Refused requests are not counted: the wait does not grow.
    assert.deepEqual(store.hit('k', rule), { limited: true, retryAfter: 20, remaining: 0, resetAfter: 60 });
    clock.advance(5);
    assert.equal(store.hit('k', rule).retryAfter, 15);
    clock.advance(15);
    assert.deepEqual(store.hit('k', rule), { limited: false, retryAfter: 0, remaining: 0, resetAfter: 60 });
    assert.equal(store.hit('k', rule).limited, true);
    // Other keys have their own count.
    assert.equal(store.hit('other', rule).limited, false);
    clock.advance(60);
    assert.equal(store.hit('k', rule).remaining, 2);
  });

  it('fits the whole burst of rules whose step is not exact in binary', () => {
    const store = new MemoryRateLimitStore(new TestClock(1000));
    const big = { requests: 200, seconds: 60 };
    for (let i = 0; i < 200; i++) assert.equal(store.hit('u', big).limited, false, `request ${i + 1}`);
    const refused = store.hit('u', big);
    assert.equal(refused.limited, true);
    assert.ok(Math.abs(refused.retryAfter - 0.3) < 1e-9);
  });

  it('under an exact rule, refuses the 201st of 200 per minute however the 200 were spread, and forgets a log a peek emptied', () => {
    const clock = new TestClock(1000);
    const store = new MemoryRateLimitStore(clock);
    const perMinute = { requests: 200, seconds: 60, exact: true };
    for (let i = 0; i < 200; i++) {
      assert.equal(store.hit('u', perMinute).remaining, 199 - i);
      clock.advance(0.25);
    }
    assert.deepEqual(store.hit('u', perMinute), { limited: true, retryAfter: 10, remaining: 0, resetAfter: 59.75 });
    clock.advance(60);
    assert.equal(store.peek('u', perMinute).remaining, 200);
    clock.advance(60);
    store.hit('other', perMinute);
    assert.equal(store.size, 1);
  });

  it('peeks without counting, takes one request back with undo, and forgets a key with clear', () => {
    const clock = new TestClock(1000);
    const store = new MemoryRateLimitStore(clock);
    assert.deepEqual(store.peek('k', rule), { limited: false, retryAfter: 0, remaining: 3, resetAfter: 0 });
    store.hit('k', rule);
    store.hit('k', rule);
    store.hit('k', rule);
    assert.equal(store.peek('k', rule).limited, true);
    assert.equal(store.peek('k', rule).limited, true);
    store.undo('k', rule);
    assert.deepEqual(store.peek('k', rule), { limited: false, retryAfter: 0, remaining: 1, resetAfter: 40 });
    store.clear('k');
    assert.equal(store.peek('k', rule).remaining, 3);
    assert.equal(store.size, 0);
    store.undo('missing', rule);
    assert.equal(store.size, 0);
  });

  it('drops drained keys, and past its size the least recently used', () => {
    const clock = new TestClock(1000);
    const store = new MemoryRateLimitStore(clock, 100);
    for (let i = 0; i < 50; i++) store.hit(`a${i}`, rule);
    assert.equal(store.size, 50);
    clock.advance(61);
    store.hit('b', rule);
    assert.equal(store.size, 1);
    for (let i = 0; i < 500; i++) store.hit(`c${i}`, rule);
    assert.equal(store.size, 100);
    // The most recent keys are the ones kept.
    assert.equal(store.peek('c499', rule).remaining, 2);
    assert.equal(store.peek('c0', rule).remaining, 3);
  });

  it('under an exact rule, refuses while the rule’s count of requests lies within the window', () => {
    const clock = new TestClock(1000);
    const store = new MemoryRateLimitStore(clock);
    const exact = { requests: 2, seconds: 1800, exact: true };
    assert.deepEqual(store.hit('n', exact), { limited: false, retryAfter: 0, remaining: 1, resetAfter: 1800 });
    clock.advance(600);
    assert.deepEqual(store.hit('n', exact), { limited: false, retryAfter: 0, remaining: 0, resetAfter: 1800 });
    // A smoothed count would accept again 900 s after the first; the exact one waits out the window.
    clock.advance(300);
    assert.deepEqual(store.hit('n', exact), { limited: true, retryAfter: 900, remaining: 0, resetAfter: 1500 });
    clock.advance(900);
    assert.deepEqual(store.peek('n', exact), { limited: false, retryAfter: 0, remaining: 1, resetAfter: 600 });
    assert.equal(store.hit('n', exact).limited, false);
    assert.equal(store.hit('n', exact).limited, true);
    // undo takes back the newest time, clear all of them.
    store.undo('n', exact);
    assert.equal(store.peek('n', exact).remaining, 1);
    store.clear('n');
    assert.equal(store.size, 0);
    // Drained logs go on the next sweep.
    store.hit('m', exact);
    clock.advance(1801);
    store.hit('other', rule);
    assert.equal(store.size, 1);
  });
});
