import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoundedMap, remember } from './bounded-map.js';

describe('BoundedMap', () => {
  it('forgets the oldest entry once full, and replacing a key forgets nothing', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    map.set('b', 3);
    assert.deepEqual([...map], [['a', 1], ['b', 3]]);
    map.set('c', 4);
    assert.deepEqual([...map], [['b', 3], ['c', 4]]);
  });

  it('remembers computed values, null included, and computes each key once', () => {
    const map = new BoundedMap<string, number | null>(10);
    let calls = 0;
    const nothing = () => {
      calls++;
      return null;
    };
    assert.equal(remember(map, 'x', nothing), null);
    assert.equal(remember(map, 'x', nothing), null);
    assert.equal(calls, 1);
  });
});
