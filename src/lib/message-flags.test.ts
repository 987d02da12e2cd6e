import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FLAG_BITS, flagNames, isFlagName } from './message-flags.js';

describe('message flags', () => {
  it('names the bits in order and hides internal ones', () => {
    assert.deepEqual(flagNames(0), []);
    assert.deepEqual(flagNames(FLAG_BITS.read | FLAG_BITS.starred), ['read', 'starred']);
    assert.deepEqual(flagNames(FLAG_BITS.read | FLAG_BITS.is_private | FLAG_BITS.active_mobile_push_notification), ['read']);
    assert.deepEqual(flagNames(FLAG_BITS.read | FLAG_BITS.historical), ['read', 'historical']);
  });

  it('adds the legacy wildcard_mentioned after either wildcard flag', () => {
    assert.deepEqual(flagNames(FLAG_BITS.stream_wildcard_mentioned), ['stream_wildcard_mentioned', 'wildcard_mentioned']);
    assert.deepEqual(flagNames(FLAG_BITS.topic_wildcard_mentioned), ['topic_wildcard_mentioned', 'wildcard_mentioned']);
  });

  it('knows its names', () => {
    assert.equal(isFlagName('starred'), true);
    assert.equal(isFlagName('wildcard_mentioned'), false);
    assert.equal(isFlagName('toString'), false);
  });
});
